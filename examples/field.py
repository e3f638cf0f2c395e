"""Print one field of the JSON document read from standard input (for the README's shell examples).

    curl -s .../tables -d '{"name": "Club"}' | python3 examples/field.py token
    ... | python3 examples/field.py seat_tokens.0.token

A dotted path walks into objects by key and into lists by index. Text prints as it is, anything
else as JSON. ``jq -r .token`` does the same where jq is installed.
"""

import json
import sys


def main() -> None:
    value = json.load(sys.stdin)
    for step in sys.argv[1].split("."):
        value = value[int(step)] if isinstance(value, list) else value[step]
    print(value if isinstance(value, str) else json.dumps(value))


if __name__ == "__main__":
    main()

"""Alembic environment: migrations run against the app's own database (Flask-Migrate)."""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
# Migrations run inside the app's process too (tests, start-up): leave its loggers working.
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url",
    target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"),
)


def run_migrations_offline() -> None:
    """Emit the SQL of the migrations instead of running them (``db upgrade --sql``)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_db.metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on a connection of the app's engine."""

    def skip_empty_autogenerate(context, revision, directives) -> None:  # type: ignore[no-untyped-def]
        # ``db migrate`` with no change in the models writes no empty revision.
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    configure_args = current_app.extensions["migrate"].configure_args
    configure_args.setdefault("process_revision_directives", skip_empty_autogenerate)
    with target_db.engine.connect() as connection:
        context.configure(
            connection=connection, target_metadata=target_db.metadata, **configure_args
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

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
        on_sqlite = connection.dialect.name == "sqlite"
        if on_sqlite:
            # All of the run in one transaction, as on PostgreSQL: a step that fails leaves the
            # database as it was (SQLite's DDL is transactional; the app begins transactions).
            configure_args = {**configure_args, "transactional_ddl": True}
            _sqlite_foreign_keys(connection, on=False)
        try:
            context.configure(
                connection=connection, target_metadata=target_db.metadata, **configure_args
            )
            with context.begin_transaction():
                context.run_migrations()
                if on_sqlite:
                    _check_foreign_keys(connection)
        finally:
            if on_sqlite:
                _sqlite_foreign_keys(connection, on=True)


def _sqlite_foreign_keys(connection, on: bool) -> None:  # type: ignore[no-untyped-def]
    """Turn SQLite's foreign keys off for a run of migrations, and on again after.

    On SQLite a batch operation copies a table into a new one and drops the old: with foreign
    keys on, that drop deletes every row referring to the old table (ON DELETE CASCADE), so a
    downgrade that copied ``games`` deleted every side, hand and move. SQLite's own procedure
    for changing a table turns them off first (https://www.sqlite.org/lang_altertable.html).
    The pragma does nothing inside a transaction, so it is set on the driver's connection
    before the migrations' transaction begins.
    """
    connection.connection.driver_connection.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def _check_foreign_keys(connection) -> None:  # type: ignore[no-untyped-def]
    """Refuse to commit migrations that left a row referring to nothing (checked by SQLite,
    since it did not enforce the keys during the run): the transaction rolls back."""
    orphans = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if orphans:
        raise RuntimeError(f"the migrations left rows referring to nothing: {orphans[:10]}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

"""`manage.py verify_record [--json] FILE...`: check game records (`pusoy-dos-record/1`).

One line per file; exit 0 only when every file is valid. The logic is the pure function
``pusoy.engine.verify_cli.run``.
"""

from __future__ import annotations

from typing import TextIO, cast

from django.core.management.base import BaseCommand, CommandError

from pusoy.engine.verify_cli import run


class Command(BaseCommand):
    help = (
        "Verify pusoy-dos-record/1 files: every move legal, result and seed as recorded. "
        "Prints 'FILE: valid' or 'FILE: invalid at move I: CODE' per file."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="record files (JSON)")
        parser.add_argument(
            "--json", action="store_true", help='one JSON object per line: {"file", "valid", ...}'
        )

    def handle(self, *args, files, **options):
        # Django's OutputWrapper is a text stream (TextIOBase), not typed as TextIO.
        exit_code = run(files, as_json=options["json"], out=cast(TextIO, self.stdout))
        if exit_code:
            raise CommandError("some records are not valid", returncode=exit_code)

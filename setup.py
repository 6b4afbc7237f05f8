"""Rollcall's build (metadata in pyproject.toml): the language catalogs are compiled as the package is built."""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

sys.path.insert(0, str(Path(__file__).resolve().parent))


class BuildWithCatalogs(build_py):
    """Compiles every ``.po`` catalog to its ``.mo`` before the package's files are gathered."""

    def run(self):
        from i18n.compile import compile_all

        compile_all()
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})

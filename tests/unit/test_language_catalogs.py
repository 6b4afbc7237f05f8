"""Every text Rollcall shows is in the catalogs, and translated: a text written into a page, a command's help or
output, or a refusal without ``_()`` fails here, and so does a marked text the Russian catalog lacks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import i18n
from i18n import CATALOGS
from i18n.catalogs import missing, sources

ROOT = Path(__file__).resolve().parents[2]

# methods whose texts a person reads: Streamlit's elements (on st, st.sidebar, a column, a container, a form)
SHOWN = {
    "button", "checkbox", "radio", "selectbox", "multiselect", "text_input", "text_area", "number_input", "slider",
    "select_slider", "toggle", "form_submit_button", "download_button", "link_button", "page_link", "header",
    "subheader", "title", "caption", "markdown", "write", "info", "warning", "error", "success", "toast",
    "expander", "tabs", "metric", "popover", "status", "spinner", "file_uploader", "date_input", "pills",
    "segmented_control", "Page", "echo", "secho", "confirm", "prompt", "add_column", "print", "fail",
    "TextColumn", "NumberColumn", "LinkColumn", "CheckboxColumn", "ProgressColumn", "Column", "BadParameter",
}
SHOWN_KEYWORDS = {"label", "help", "placeholder", "title", "caption", "body", "text", "message"}
NOT_TEXT_METHODS = {"print"}  # print(...) is a text only when written to a person: flagged like the others
ERROR_NAME = re.compile(r"(Error|Violation|Record|Unavailable|Fault|Refused|Exit)$")
WORDS = re.compile(r"[A-Za-z]{2,}")
SKIP_FIRST_ARG = {"fail"}  # chk.fail(rule_id, text): the rule id is not a text


def literal_text(node: ast.AST) -> str | None:
    """The words of a literal written straight into a call (a string, an f-string, a sum or .format() of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        parts = [literal_text(node.left), literal_text(node.right)]
        return " ".join(p for p in parts if p) or None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return literal_text(node.func.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        return " ".join(t for t in (literal_text(e) for e in node.elts) if t) or None
    if isinstance(node, ast.IfExp):
        return " ".join(t for t in (literal_text(node.body), literal_text(node.orelse)) if t) or None
    return None


def callee(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def command_without_help(node: ast.AST) -> bool:
    """A Typer command or callback whose help would be its docstring, which no catalog holds."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for deco in node.decorator_list:
        if isinstance(deco, ast.Call) and callee(deco) in ("command", "callback") and \
                not any(k.arg == "help" for k in deco.keywords) and ast.get_docstring(node):
            return True
    return False


def unmarked(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if command_without_help(node):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: command {node.name} takes its help from its "
                         "docstring: give it help=_(...)")
        if not isinstance(node, ast.Call):
            continue
        name = callee(node)
        if name is None:
            continue
        raised_error = bool(ERROR_NAME.search(name)) and name[:1].isupper()
        if name not in SHOWN and not raised_error:
            continue
        args = node.args[1:] if name in SKIP_FIRST_ARG else node.args
        candidates = list(args) + [k.value for k in node.keywords if k.arg in SHOWN_KEYWORDS]
        for arg in candidates:
            text = literal_text(arg)
            if text and WORDS.search(text) and "untranslated" not in lines[node.lineno - 1]:
                found.append(f"{path.relative_to(ROOT)}:{arg.lineno}: {text[:70]!r}")
    return found


@pytest.mark.parametrize("catalog", list(CATALOGS))
def test_no_text_a_person_reads_is_left_out_of_the_catalogs(catalog: str) -> None:
    found = [hit for path in sources(catalog) for hit in unmarked(path)]
    assert not found, f"{len(found)} texts shown without _() (mark them, or say `# untranslated: why`):\n" + \
        "\n".join(found[:60])


@pytest.mark.parametrize("catalog", list(CATALOGS))
def test_the_russian_catalogs_translate_every_marked_text(catalog: str) -> None:
    gaps = list(missing("ru", [catalog]))
    assert not gaps, f"{len(gaps)} texts without a Russian translation (python -m i18n.catalogs, then fill the " \
        ".po):\n" + "\n".join(f"{where}: {text[:70]!r}" for _pkg, text, where in gaps[:60])


def test_a_marked_text_written_raw_into_a_call_is_found() -> None:
    tree = "st.button('Start the game')\nst.button(_('Start the game'))\nraise RuleViolation('R1', f'{x} moved')\n"
    probe = ROOT / "tests" / "unit" / "_probe_language.py"
    probe.write_text(tree, encoding="utf-8")
    try:
        assert [hit.split(": ", 1)[1] for hit in unmarked(probe)] == ["'Start the game'", "' moved'"]
    finally:
        probe.unlink()


def test_english_is_spoken_when_nobody_chose() -> None:
    assert i18n.current() == "en"
    assert i18n._("Start the game") == "Start the game"


def test_russian_counts_take_their_three_forms() -> None:
    from i18n import ngettext

    before = i18n._language.set(i18n.current())  # the language is put back as it was, whatever happens
    try:
        i18n.use("ru")
        said = [ngettext("{n} player", "{n} players", n).format(n=n) for n in (1, 2, 5, 11, 21, 24)]
    finally:
        i18n._language.reset(before)
    assert said == ["1 игрок", "2 игрока", "5 игроков", "11 игроков", "21 игрок", "24 игрока"]
    assert i18n.current() == "en"


def test_a_text_marked_inside_an_f_strings_braces_is_extracted(tmp_path: Path) -> None:
    """Babel reads an f-string as one token; the catalogs read the texts marked in its braces too (the Record page's
    "Replay this game" link was English on a Russian page, in no catalog)."""
    from i18n.catalogs import in_f_strings

    probe = tmp_path / "probe.py"
    probe.write_text("x = f'<a>{e(_(\"Replay this game\"))}</a> {n}'\ny = f'{N_(\"kept\")}'\nz = _('plain')\n",
                     encoding="utf-8")
    assert in_f_strings(probe) == [(1, "Replay this game"), (2, "kept")]

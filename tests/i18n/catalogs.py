"""A small reader of the project's .po catalogs (no gettext tools or extra packages needed)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
LANGUAGES = ("pt", "fr")
KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")')


@dataclass
class Entry:
    """One message of a catalog: its id, its translations and its flags."""

    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def translations(self) -> list[str]:
        return [self.msgstr[i] for i in sorted(self.msgstr)]


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, header included (msgid ""), obsolete entries left out."""
    entries: list[Entry] = []
    entry = Entry()
    key: tuple[str, int] | None = None
    started = False

    def close() -> None:
        nonlocal entry, started, key
        if started:
            entries.append(entry)
        entry, started, key = Entry(), False, None

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            close()
        elif line.startswith("#,"):
            if started and key is not None and key[0] == "msgstr":
                close()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if key is None:
                raise ValueError(f"{path}: continuation without a keyword: {line}")
            _append(entry, key, text)
        else:
            match = KEYWORD.fullmatch(line)
            if not match:
                raise ValueError(f"{path}: cannot read {line!r}")
            name, index, text = match.group(1), int(match.group(2) or 0), match.group(3)
            if name in ("msgctxt", "msgid") and started and key is not None and key[0] == "msgstr":
                close()
            started = True
            key = (name, index)
            if name == "msgstr":
                entry.msgstr[index] = ""
            elif name == "msgid_plural":
                entry.msgid_plural = ""
            elif name == "msgctxt":
                entry.msgctxt = ""
            _append(entry, key, ast.literal_eval(text))
    close()
    return entries


def _append(entry: Entry, key: tuple[str, int], text: str) -> None:
    name, index = key
    if name == "msgid":
        entry.msgid += text
    elif name == "msgid_plural":
        entry.msgid_plural = (entry.msgid_plural or "") + text
    elif name == "msgctxt":
        entry.msgctxt = (entry.msgctxt or "") + text
    else:
        entry.msgstr[index] += text

"""The README and the pages in docs/: short to the set-up, and every link leads somewhere.

Issue 39, point 7: a newcomer reads to the set-up in a minute (README.md at most 250
lines, the set-up commands within its first 80, the test command within its first 120),
CI runs exactly the README's test command, and every relative link or picture of
README.md and docs/*.md resolves, a ``#anchor`` to a heading as GitHub names it.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INSTALL_AND_RUN = "python -m pip install -e . && python bot.py"
SHELLS = {"bash", "sh", "shell", "console"}


def pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def ci_command() -> str:
    """The command ``.ci/run`` runs: its last line."""
    return (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1].strip()


def split_code(text: str) -> tuple[list[str], list[tuple[str, int, str]]]:
    """The page's lines with its fenced code blocks blanked, and each line of those
    blocks as ``(language, line number from 1, line)``."""
    prose, code = [], []
    fence, language = None, ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence, language = stripped[:3], stripped[3:].strip().lower()
            prose.append("")
        elif fence is not None and stripped.startswith(fence):
            fence = None
            prose.append("")
        elif fence is not None:
            code.append((language, number, stripped))
            prose.append("")
        else:
            prose.append(line)
    return prose, code


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as shown, lower case, without
    punctuation but for hyphens, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = text.replace("`", "").replace("*", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, seen = set(), {}
    for line in split_code(page.read_text())[0]:
        heading = re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)
        if heading:
            name = slug(heading.group(1))
            count = seen.get(name, 0)
            seen[name] = count + 1
            found.add(name if count == 0 else f"{name}-{count}")
        found.update(re.findall(r"""<a\s[^>]*(?:name|id)=["']([^"']+)["']""", line))
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """Every link and picture of a page outside its code: ``(line number, target)``."""
    found = []
    for number, line in enumerate(split_code(page.read_text())[0], 1):
        line = re.sub(r"(`+).+?\1", "code", line)  # inline code is not a link
        targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", line)
        targets += re.findall(r"""(?:src|href)=["']([^"']+)["']""", line)
        targets += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", line)
        found += [(number, target) for target in targets]
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    broken = []
    for number, target in links(page):
        if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|//", target):
            continue  # a web address, mailto: …: not this repository's
        path, _, anchor = target.partition("#")
        where = f"{page.relative_to(root)}:{number}: {target}"
        file = (page.parent / path).resolve() if path else page
        if root not in file.parents or not file.exists():
            broken.append(f"{where} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{where} (no such heading in {file.relative_to(root)})")
    return broken


def test_every_relative_link_and_picture_resolves():
    broken = [problem for page in pages() for problem in broken_links(page)]
    assert not broken, "\n".join(broken)


def test_the_link_check_sees_a_missing_file_a_missing_heading_and_passes_good_links(tmp_path):
    """The check itself: it finds each kind of broken link, and passes good ones."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# Title\n\n## Run the tests\n")
    (tmp_path / "docs" / "learning.md").write_text("# How it learns\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# A page\n\n## The 7×6 board: `/connect4` too\n\n## Again\n\n## Again\n\n"
        "[gone](nowhere.md) [heading](learning.md#no-such-heading) "
        "![missing](missing.png) <img src='gone.png'> [out](../../elsewhere.md)\n\n"
        "[good](../README.md#run-the-tests) [here](#the-76-board-connect4-too) "
        "[twice](#again-1) [web](https://example.com/x.md) [page](learning.md)\n\n"
        "```bash\n[in code](nowhere-either.md)\n```\n"
    )
    problems = broken_links(page, tmp_path)
    assert len(problems) == 5, problems
    for bad in ("nowhere.md", "no-such-heading", "missing.png", "gone.png", "elsewhere.md"):
        assert any(bad in problem for problem in problems), (bad, problems)


def test_the_readme_is_at_most_250_lines():
    lines = len(README.read_text().splitlines())
    assert lines <= 250, f"README.md is {lines} lines; the rest belongs in docs/"


def shell_lines(page: Path) -> list[tuple[int, str]]:
    code = split_code(page.read_text())[1]
    return [(n, line) for language, n, line in code if language in SHELLS]


def test_the_set_up_commands_are_within_the_readmes_first_80_lines():
    numbers = [n for n, line in shell_lines(README) if line == INSTALL_AND_RUN]
    assert numbers and numbers[0] <= 80, f"{INSTALL_AND_RUN!r} at README lines {numbers}"
    before = "\n".join(README.read_text().splitlines()[: numbers[0]])
    assert ".env" in before and "DISCORD_TOKEN" in before  # where the token goes


def test_the_test_command_is_the_readmes_and_within_its_first_120_lines():
    """The README's test command (its one shell line that installs the test extras) is
    exactly what CI runs, the last line of .ci/run."""
    commands = [(n, line) for n, line in shell_lines(README) if '".[test]"' in line]
    assert len(commands) == 1, commands
    number, command = commands[0]
    assert command == ci_command()
    assert number <= 120, f"the test command is at README line {number}"
    assert 'python -m pip install -e ".[test]"' in command and "python -m pytest" in command


def test_every_docs_page_is_linked_from_the_readme_and_every_picture_shown():
    linked = {
        (README.parent / target.partition("#")[0]).resolve()
        for _, target in links(README)
        if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target)
    }
    assert [p.name for p in sorted(DOCS.glob("*.md")) if p not in linked] == []
    shown = {(page.parent / t).resolve() for page in pages() for _, t in links(page)}
    assert [p.name for p in sorted(DOCS.glob("*.png")) if p not in shown] == []


def test_the_invite_urls_written_out_ask_for_the_bots_permissions():
    """The URL the README and the set-up page write out is the one the bot logs."""
    from bot import INVITE_PERMISSIONS, INVITE_SCOPES

    for page in (README, DOCS / "setup.md"):
        urls = re.findall(
            r"https://discord\.com/oauth2/authorize\?\S*permissions=\d+", page.read_text()
        )
        assert urls, page.name
        for url in urls:
            assert f"permissions={INVITE_PERMISSIONS.value}" in url
            assert "scope=" + "+".join(INVITE_SCOPES) in url

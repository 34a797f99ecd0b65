"""The documentation holds together: every relative link in README.md,
CHANGELOG.md and docs/*.md leads to a file and heading that exist, the README
stays short and keeps the two commands CI reads, every section of the old
README has a home, and the settings and the version are documented as they
are. Reads files only: no database."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]

# The README before issue 34 cut it down (commit 16ca9ba), section by section,
# and where each section's text went.
OLD_README = "16ca9ba"
OLD_SECTIONS = {
    "Tenbou": "README.md#tenbou",
    "Two commands": "README.md#two-commands",
    "Running it for real": "docs/deploy.md#running-it-for-real",
    "Content-Security-Policy": "docs/deploy.md#content-security-policy",
    "HTTPS on a club's LAN": "docs/deploy.md#https-on-a-clubs-lan",
    "Load on an event day": "docs/deploy.md#load-on-an-event-day",
    "Layout": "docs/architecture.md#layout",
    "Using Tenbou": "docs/staff.md#players-pages",
    "Scoring through a dead network": "docs/offline.md#scoring-through-a-dead-network",
    "Offline entry: the phone's engine": "docs/offline.md#the-phones-engine",
    "The table signs the result": "docs/staff.md#the-table-signs-the-result",
    "A tournament day": "docs/director.md#an-event-day",
    "Stages, tie-breaks, teams and the EMA results": "docs/director.md#stages-tie-breaks-teams-and-the-ema-results",
    "Importing Tenhou logs": "docs/data.md#importing-tenhou-logs",
    "Data in and out": "docs/data.md#data-in-and-out",
    "Bounds": "docs/bounds.md#the-bounds-at-a-glance",
    "Languages": "docs/languages.md#languages",
    "Seating": "docs/seating.md#seating",
    "The scoring library": "docs/scoring.md#the-scoring-library",
    "`python -m scoring`: the JSON interface": "docs/scoring.md#python--m-scoring-the-json-interface",
    "Tile analysis: the `hand` op": "docs/scoring.md#tile-analysis-the-hand-op",
    "Rulesets": "docs/rulesets.md#rulesets",
    "Choices the rules leave open": "docs/rulesets.md#choices-the-rules-leave-open",
    "Glossary": "README.md#glossary",
    "Changes": "CHANGELOG.md#changelog",
}

# The README as it is: each section and the guides in docs/ that hold its
# subject at length (the README gives the short form). A new README section
# names its home here, or test_readme_every_section_has_a_home_in_docs fails.
README_HOMES = {
    "Tenbou": ["docs/index.md#tenbous-guides"],
    "Two commands": ["docs/development.md#running-the-tests", "docs/deploy.md#running-it-for-real",
                     "docs/offline.md#the-phones-engine"],
    "A tour": ["docs/staff.md#players-pages", "docs/staff.md#scoring-at-the-table", "docs/ratings.md",
               "docs/director.md#an-event-day", "docs/data.md#data-in-and-out", "docs/api.md",
               "docs/scoring.md#the-scoring-library"],
    "Documentation": ["docs/index.md#tenbous-guides"],
    # The one exception: STYLE.md (habit 2) keeps the short glossary in the README
    # itself, the one place a newcomer reads first; docs/ uses its words.
    "Glossary": ["README.md#glossary"],
}
README_SELF_HOMED = {"Glossary"}

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code."""
    text = re.sub(r"^```.*?^```[^\n]*$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def headings(text: str) -> list[str]:
    """The Markdown headings outside fenced code blocks, as written."""
    found, fence = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and (m := re.match(r"#{1,6} (.+)", line)):
            found.append(m.group(1).strip())
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    result = set()
    for h in headings(path.read_text(encoding="utf-8")):
        s = slug(h)
        result.add(f"{s}-{seen[s]}" if s in seen else s)
        seen[s] = seen.get(s, 0) + 1
    return result


def problem(source: Path, target: str) -> str | None:
    """Why a relative link from ``source`` leads nowhere, or None."""
    path, _, anchor = target.partition("#")
    dest = (source.parent / path).resolve() if path else source
    if not dest.exists():
        return f"{source.relative_to(ROOT)}: {target}: no such file"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"{source.relative_to(ROOT)}: {target}: no heading #{anchor} in {dest.relative_to(ROOT)}"
    return None


def relative_links(page: Path) -> list[str]:
    return [t for t in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_relative_links_resolve(page: Path) -> None:
    links = relative_links(page)
    assert [p for t in links if (p := problem(page, t))] == []


def test_docs_link_checker_catches_a_dead_link() -> None:
    readme = ROOT / "README.md"
    assert problem(readme, "docs/no-such-guide.md") is not None
    assert problem(readme, "docs/deploy.md#no-such-heading") is not None
    assert problem(readme, "docs/deploy.md#content-security-policy") is None
    assert slug("`python -m scoring`: the JSON interface") == "python--m-scoring-the-json-interface"
    assert slug("HTTPS on a club's LAN") == "https-on-a-clubs-lan"


def test_readme_stays_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150  # issue 34: "at most about 150 lines"


@pytest.mark.parametrize("marker", ["<!-- run-command -->", "<!-- test-command -->"])
def test_readme_keeps_its_command(marker: str) -> None:
    """.ci/run takes the second line after the test marker as the command to run."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines.count(marker) == 1
    i = lines.index(marker)
    assert lines[i + 1] == "```"
    assert lines[i + 2].strip() and not lines[i + 2].startswith("```")
    assert lines[i + 3] == "```"


def test_docs_every_old_readme_section_has_a_home() -> None:
    homeless = [(section, home) for section, home in OLD_SECTIONS.items()
                if problem(ROOT / "README.md", home) is not None]
    assert homeless == []


def test_readme_every_section_has_a_home_in_docs() -> None:
    """Every section of the README, listed with its home in docs/ (README_HOMES):
    the list is the README's headings in order, and every home resolves."""
    readme = ROOT / "README.md"
    assert headings(readme.read_text(encoding="utf-8")) == list(README_HOMES)
    for section, homes in README_HOMES.items():
        assert homes, section
        assert all(h.startswith("docs/") for h in homes) or section in README_SELF_HOMED, (section, homes)
        assert [p for h in homes if (p := problem(readme, h))] == [], section


def test_docs_old_readme_sections_are_the_commits() -> None:
    try:
        old = subprocess.run(["git", "show", f"{OLD_README}:README.md"], cwd=ROOT, capture_output=True,
                             text=True, check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip(f"commit {OLD_README} is not in this clone's history")
    assert headings(old) == list(OLD_SECTIONS)


def test_docs_index_lists_every_guide() -> None:
    listed = {t.partition("#")[0] for t in relative_links(DOCS / "index.md")}
    guides = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert guides - listed == set()
    assert "docs/index.md" in relative_links(ROOT / "README.md")


def test_docs_every_setting_in_the_table() -> None:
    settings = (ROOT / "league" / "settings.py").read_text(encoding="utf-8")
    names = set(re.findall(r"""(?:os\.environ(?:\.get\(|\[)|envbool\()\s*["']([A-Z_]+)["']""", settings))
    assert {"DEBUG", "SECRET_KEY", "CACHE_URL", "PUBLIC_RATE_LIMIT"} <= names
    deploy = (DOCS / "deploy.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in deploy.splitlines() if line.startswith("| `"))
    assert sorted(n for n in names if f"`{n}`" not in table) == []


def test_changelog_version_is_pyprojects() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)", changelog, flags=re.M)
    assert versions[0] == version


def test_readme_names_pyprojects_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"version (\d+\.\d+\.\d+)", readme) == [version]

"""Starting a world from a real folder: the snapshot's bounds, symlinks, secrets and git's view, on real
folders (git runs for real, read-only)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from agentworld_mcp.domains.shell.virtual.gate import NotComputable
from agentworld_mcp.tools.limits import SnapshotBounds
from agentworld_mcp.tools.worlds.folder_snapshot import take_snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SECRET = "ghp_" + "Zx9" * 12  # a GitHub token's shape: the redactor knows it


def test_a_snapshot_reads_small_text_keeps_secrets_and_binaries_unknown_and_never_follows_a_link_out(tmp_path):
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "src" / "main.py").write_text("print('hi')\n")
    (project / ".env").write_text(f"API_TOKEN={SECRET}\n")
    (project / "blob.bin").write_bytes(b"\0\1\2")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside\n")
    os.symlink(outside, project / "link")
    snapshot = take_snapshot(str(project))
    assert snapshot.files["src/main.py"] == "print('hi')\n"
    assert snapshot.files[".env"] is None and snapshot.files["blob.bin"] is None
    assert "link" in snapshot.links and not any(path.startswith("link/") for path in snapshot.files)
    text = str(snapshot.as_json()) + snapshot.state_text()
    assert SECRET not in text and "outside\n" not in text
    shell = snapshot.shell()
    assert shell.compute("cat src/main.py").stdout == "print('hi')\n"
    with pytest.raises(NotComputable):
        shell.compute("cat .env")


def test_a_snapshot_stops_at_its_bounds_with_a_warning(tmp_path):
    for index in range(30):
        (tmp_path / f"f{index}.txt").write_text("x" * 100)
    snapshot = take_snapshot(str(tmp_path), SnapshotBounds(max_paths=10, max_file_bytes=50))
    assert len(snapshot.files) <= 10
    assert all(content is None for content in snapshot.files.values())
    assert any("10 paths" in warning for warning in snapshot.warnings)
    assert any("50 bytes" in warning for warning in snapshot.warnings)
    assert snapshot.folders[""] is False  # the listing was cut: what else is there is unknown



_NAMES = st.text(alphabet="abcdefgh", min_size=1, max_size=4)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(st.tuples(st.sampled_from(["", "a", "a/b", "c"]), _NAMES),
                             st.tuples(st.integers(0, 3000), st.booleans()), max_size=25),
       bounds=st.tuples(st.integers(1, 30), st.integers(0, 2000), st.integers(0, 20000)))
def test_a_snapshot_never_reads_past_its_bounds_follows_no_link_out_and_stores_no_planted_secret(
        tmp_path_factory, files, bounds):
    root = tmp_path_factory.mktemp("tree")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "private.txt").write_text(f"token = {SECRET}\n")
    os.symlink(outside, root / "escape")
    for (folder, name), (size, secret) in files.items():
        (root / folder).mkdir(parents=True, exist_ok=True)
        target = root / folder / f"{name}.txt"
        if not target.is_dir():
            target.write_text(f"API_KEY={SECRET}\n" if secret else "x" * size)
    limit = SnapshotBounds(max_paths=bounds[0], max_file_bytes=bounds[1], max_total_bytes=bounds[2])
    snapshot = take_snapshot(str(root), limit)
    assert len(snapshot.files) + len(snapshot.folders) - 1 + len(snapshot.links) <= limit.max_paths
    read = [text for text in snapshot.files.values() if text is not None]
    assert all(len(text.encode()) <= limit.max_file_bytes for text in read)
    assert sum(len(text.encode()) for text in read) <= limit.max_total_bytes
    assert not any(path.startswith("escape/") for path in (*snapshot.files, *snapshot.folders))
    assert SECRET not in str(snapshot.as_json()) + snapshot.state_text()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_snapshot_holds_gits_view_and_lists_ignored_trees_without_reading_them(tmp_path):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True,
                       capture_output=True)
    git("init", "-q")
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "kept.py").write_text("a = 1\n")
    (tmp_path / "changed.py").write_text("b = 1\n")
    git("add", ".")
    git("commit", "-qm", "one")
    (tmp_path / "changed.py").write_text("b = 2\n")
    (tmp_path / "new.py").write_text("c = 1\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "out.o").write_text("object\n")
    before = sorted(p.name for p in (tmp_path / ".git").iterdir())
    snapshot = take_snapshot(str(tmp_path))
    assert snapshot.git["kept.py"] == "tracked" and snapshot.git["changed.py"] == "modified"
    assert snapshot.git["new.py"] == "untracked" and snapshot.git["build"] == "ignored"
    assert snapshot.folders["build"] is False and "build/out.o" not in snapshot.files
    assert "build/ (git-ignored, not read)" in snapshot.state_text()
    assert sorted(p.name for p in (tmp_path / ".git").iterdir()) == before  # nothing written, not even a lock

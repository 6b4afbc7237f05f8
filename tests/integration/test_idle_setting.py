"""How long a signed-in dashboard device may be left alone: a setting (domain.settings) with its environment
variable and an option of `rollcall dashboard`, which passes it on to the dashboard it starts."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app
from domain import settings
from domain.errors import RollcallError


def test_the_idle_time_is_30_minutes_unless_the_environment_says_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(settings.IDLE_ENV, raising=False)
    assert settings.idle_minutes() == 30
    monkeypatch.setenv(settings.IDLE_ENV, "0.5")
    assert settings.idle_minutes() == 0.5
    assert settings.idle_minutes(12) == 12  # given beats the environment


@pytest.mark.parametrize("wrong", ["0", "-3", "soon", "inf", "nan"])
def test_an_idle_time_that_is_not_minutes_above_0_is_refused_naming_the_variable(
        wrong: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(settings.IDLE_ENV, wrong)
    with pytest.raises(RollcallError, match=f"^ROLLCALL_IDLE_MINUTES: {wrong} is not a number of minutes above 0$"):
        settings.idle_minutes()


class Started:
    """A child process that `rollcall dashboard` starts, as started (nothing runs)."""

    envs: list[dict] = []

    def __init__(self, args, env=None, **kwargs) -> None:
        Started.envs.append(env)

    def wait(self, timeout=None) -> int:
        return 0

    def poll(self) -> int:
        return 0


class NoFollower:
    """The dashboard's supervised follower, not started."""

    def __init__(self, folder, env=None) -> None:
        pass

    def start(self) -> NoFollower:
        return self

    def stop(self) -> None:
        pass


def test_the_dashboard_option_passes_the_idle_time_to_the_dashboard(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.serve
    import projections.follow

    monkeypatch.delenv(settings.IDLE_ENV, raising=False)
    monkeypatch.setattr(cli.serve.subprocess, "Popen", Started)
    monkeypatch.setattr(projections.follow, "Supervisor", NoFollower)
    Started.envs.clear()
    runner = CliRunner()
    result = runner.invoke(app, ["dashboard", "--no-open", "--idle-minutes", "5", "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["dashboard", "--no-open", "--data", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert [env[settings.IDLE_ENV] for env in Started.envs] == ["5", "30"]
    refused = runner.invoke(app, ["dashboard", "--no-open", "--idle-minutes", "0", "--data", str(tmp_path)])
    assert refused.exit_code == 1 and "--idle-minutes: 0.0 is not a number of minutes above 0" in refused.output
    assert len(Started.envs) == 2  # nothing started

"""A Python client for `composer-lab env serve` (lib/env/server.ts), standard library only.

    from composer_lab_env import EnvClient, make_reward_func, run_episode

    client = EnvClient("http://127.0.0.1:8010")
    obs = client.reset(task_id="inventory-reserve")          # {"episode_id", "observation": {"prompt", ...}, ...}
    r = client.step(obs["episode_id"], {"type": "list_dir", "path": "."})

    # TRL: GRPOTrainer(reward_funcs=[make_reward_func(url)], ...) with a dataset that has a task_id column
    reward = make_reward_func("http://127.0.0.1:8010")
    reward(prompts, completions, task_id=ids)                # -> list[float]

A 4xx answer raises EnvError, whose `field` names the offending body field (e.g. "action.path").
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

__all__ = ["EnvClient", "EnvError", "make_reward_func", "run_episode"]


class EnvError(Exception):
    """An answer with a status of 400 or more: `status`, `field` (the offending field or None), `code`, `body`."""

    def __init__(self, status: int, body: Dict[str, Any]):
        err = body.get("error") or {}
        self.status = status
        self.field: Optional[str] = err.get("field")
        self.code: Optional[str] = err.get("code")
        self.body = body
        super().__init__(f"HTTP {status}: {err.get('message', body)}")


class EnvClient:
    """One server; every method is one HTTP request and returns the decoded JSON answer."""

    def __init__(self, base_url: str, timeout: float = 900.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout

    def _call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None, query: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        url = self.base_url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = json.dumps(body).encode("utf-8") if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return json.loads(res.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            text = e.read().decode("utf-8", "replace")
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = {"error": {"message": text}}
            raise EnvError(e.code, parsed) from None

    def health(self) -> Dict[str, Any]:
        return self._call("GET", "/health")

    def tasks(self) -> List[Dict[str, Any]]:
        return self._call("GET", "/tasks")["tasks"]

    def reset(self, task_id: Optional[str] = None, seed: Optional[int] = None, episode_id: Optional[str] = None) -> Dict[str, Any]:
        body = {k: v for k, v in {"task_id": task_id, "seed": seed, "episode_id": episode_id}.items() if v is not None}
        return self._call("POST", "/reset", body)

    def step(self, episode_id: str, action: Dict[str, Any]) -> Dict[str, Any]:
        return self._call("POST", "/step", {"episode_id": episode_id, "action": action})

    def state(self, episode_id: Optional[str] = None) -> Dict[str, Any]:
        return self._call("GET", "/state", query={"episode_id": episode_id} if episode_id else None)

    def close(self, episode_id: str) -> Dict[str, Any]:
        return self._call("POST", "/close", {"episode_id": episode_id})

    def reward(self, completions: Sequence[Any], task_id: Union[str, Sequence[str]], prompts: Optional[Sequence[Any]] = None) -> Dict[str, Any]:
        """POST /reward: {"rewards": [...], "results": [{task_id, reward, frac, guard_ok, hacked, flags, ...}]}."""
        body: Dict[str, Any] = {"completions": list(completions), "task_id": task_id if isinstance(task_id, str) else list(task_id)}
        if prompts is not None:
            body["prompts"] = list(prompts)
        return self._call("POST", "/reward", body)


def make_reward_func(base_url: str, timeout: float = 900.0, on_results: Optional[Callable[[List[Dict[str, Any]]], None]] = None):
    """A TRL reward function: reward(prompts, completions, task_id, **kwargs) -> list[float].

    TRL passes the dataset's other columns as keyword lists; `task_id` must be one of them. Each
    completion (text, or a conversation whose assistant turns hold a unified diff or a JSON action
    transcript) is graded in the server's sandbox. `on_results` receives the per-completion
    results (flags, hack verdicts) for logging.
    """
    client = EnvClient(base_url, timeout=timeout)

    def reward(prompts: Sequence[Any], completions: Sequence[Any], task_id: Union[str, Sequence[str]], **kwargs: Any) -> List[float]:
        answer = client.reward(completions, task_id, prompts=prompts)
        if on_results is not None:
            on_results(answer["results"])
        return [float(r) for r in answer["rewards"]]

    reward.__name__ = "composer_lab_reward"
    return reward


def run_episode(client: EnvClient, policy: Callable[[Dict[str, Any]], Dict[str, Any]], task_id: Optional[str] = None, seed: Optional[int] = None, max_steps: int = 100) -> Dict[str, Any]:
    """Runs one episode: `policy(observation) -> action` until done (an unfinished one is submitted).

    Returns {"episode_id", "task_id", "reward", "steps", "grade", "trajectory"}; the episode is closed.
    """
    start = client.reset(task_id=task_id, seed=seed)
    eid = start["episode_id"]
    obs: Dict[str, Any] = start["observation"]
    trajectory: List[Dict[str, Any]] = []
    answer: Dict[str, Any] = {"done": False, "reward": None, "observation": obs}
    try:
        for _ in range(max_steps):
            action = policy(obs)
            answer = client.step(eid, action)
            trajectory.append({"action": action, "observation": answer["observation"]})
            obs = answer["observation"]
            if answer["done"]:
                break
        if not answer["done"]:
            answer = client.step(eid, {"type": "submit"})
        return {"episode_id": eid, "task_id": start["observation"]["task_id"], "reward": answer["reward"], "steps": len(trajectory), "grade": answer["observation"].get("grade"), "trajectory": trajectory}
    finally:
        try:
            client.close(eid)
        except EnvError:
            pass

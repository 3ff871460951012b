"""The app answers its health check over real HTTP (in memory)."""

import httpx

from bot.app import build_app


async def test_healthz_answers_ok() -> None:
    app = build_app()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        response = await c.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}

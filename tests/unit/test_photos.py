"""Photos: only images, within the limit, without their EXIF, with a thumbnail (bot.photos)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.photos import (
    DEFAULT_MAX_BYTES,
    FsPhotoStore,
    PhotoRefusedError,
    file_key,
    keep,
    max_bytes_from_env,
    process,
    read_limited,
)
from tests.photo_samples import eleven_mb, has_gps, jpeg_with_gps, png, text_as_jpg


def test_a_jpeg_with_gps_comes_out_without_any_exif() -> None:
    raw = jpeg_with_gps()
    assert has_gps(raw)
    kept = process(raw)
    assert kept.format == "jpeg"
    assert not has_gps(kept.data)
    assert not has_gps(kept.thumb)
    with Image.open(io.BytesIO(kept.data)) as image:
        assert image.format == "JPEG"
        assert not image.getexif()
        assert (image.width, image.height) == (640, 480)
        assert b"PhoneMaker" not in kept.data
    with Image.open(io.BytesIO(kept.thumb)) as thumb:
        assert max(thumb.size) <= 320


def test_a_png_stays_a_png() -> None:
    kept = process(png())
    assert kept.format == "png"
    with Image.open(io.BytesIO(kept.data)) as image:
        assert image.format == "PNG"


def test_text_named_jpg_is_refused_as_not_an_image() -> None:
    with pytest.raises(PhotoRefusedError) as refused:
        process(text_as_jpg())
    assert refused.value.code == "not_image"


def test_an_image_over_the_limit_is_refused() -> None:
    with pytest.raises(PhotoRefusedError) as refused:
        process(eleven_mb())
    assert refused.value.code == "too_large"


async def test_reading_stops_at_the_limit() -> None:
    read: list[int] = []

    async def chunks():  # type: ignore[no-untyped-def]
        for n in range(100):
            read.append(n)
            yield b"x" * 1024

    with pytest.raises(PhotoRefusedError):
        await read_limited(chunks(), 10 * 1024)
    assert len(read) == 11  # the eleventh kilobyte passed the limit: nothing more read


def test_the_limit_is_configurable() -> None:
    assert max_bytes_from_env({}) == DEFAULT_MAX_BYTES
    assert max_bytes_from_env({"POUNDBOT_PHOTO_MAX_MB": "2"}) == 2 * 1024 * 1024
    with pytest.raises(ValueError, match="whole number"):
        max_bytes_from_env({"POUNDBOT_PHOTO_MAX_MB": "ten"})


async def test_the_folder_store_keeps_the_image_and_its_thumbnail(tmp_path: Path) -> None:
    store = FsPhotoStore(tmp_path)
    kept = process(jpeg_with_gps())
    await keep(store, kept)
    assert await store.get(file_key(kept.sha256, "jpeg")) == kept.data
    assert await store.get(file_key(kept.sha256, "jpeg", thumb=True)) == kept.thumb
    assert await store.get("0" * 64 + ".jpg") is None
    assert not [p for p in store.root.rglob("*") if p.name.endswith(".tmp")]

"""Photos: only images, within the limit, without their EXIF, with a thumbnail
(bot.adapters.photo_store)."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from bot.adapters.photo_store import (
    DEFAULT_MAX_BYTES,
    MAX_PIXELS,
    FsPhotoStore,
    PhotoRefusedError,
    file_key,
    keep,
    max_bytes_from_env,
    prepare,
    process,
    read_limited,
)
from bot.i18n import translator
from bot.i18n.keepers.photos import photo_refused
from tests.photo_samples import eleven_mb, has_gps, jpeg_with_gps, png, png_of_size, text_as_jpg


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


@cache
def _big_png(width: int, height: int) -> bytes:
    """A picture of ``width`` x ``height`` that compresses well (a small file, many
    pixels); made once a size (encoding 25 megapixels takes seconds)."""
    image = Image.radial_gradient("L").resize((width, height)).convert("RGBA")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_a_picture_over_25_megapixels_is_refused_and_one_at_25_is_kept() -> None:
    with pytest.raises(PhotoRefusedError) as refused:
        process(_big_png(5001, 5000), 50 * 1024 * 1024)
    assert refused.value.code == "too_many_pixels"  # refused for its pixels, not its bytes
    assert MAX_PIXELS == 25_000_000
    kept = process(_big_png(5000, 5000), 50 * 1024 * 1024)
    assert (kept.width, kept.height) == (5000, 5000)


def test_no_metadata_of_a_png_or_a_jpeg_is_kept_and_the_orientation_is_applied() -> None:
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Kunhammed Haji, 9847012345")
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    out = io.BytesIO()
    Image.new("RGB", (40, 20), (1, 2, 3)).save(
        out, "PNG", pnginfo=info, icc_profile=b"\0" * 128, exif=exif.tobytes()
    )
    kept = process(out.getvalue())
    for data in (kept.data, kept.thumb):
        with Image.open(io.BytesIO(data)) as image:
            assert image.text == {}  # type: ignore[attr-defined]
            assert "icc_profile" not in image.info
            assert not image.getexif()
        assert b"Kunhammed" not in data
        assert b"PhoneMaker" not in data
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated: the camera was held upright
    out = io.BytesIO()
    Image.new("RGB", (40, 20), (1, 2, 3)).save(
        out, "JPEG", exif=exif.tobytes(), comment=b"Kunhammed Haji", icc_profile=b"\0" * 128
    )
    kept = process(out.getvalue())
    assert (kept.width, kept.height) == (20, 40)
    with Image.open(io.BytesIO(kept.data)) as image:
        assert not image.getexif()
        assert "comment" not in image.info
        assert "icc_profile" not in image.info
    assert b"Kunhammed" not in kept.data


async def test_a_picture_is_processed_off_the_event_loop() -> None:
    """A large picture takes about a second to decode and re-encode: the event loop
    answers others meanwhile (a sync call would finish it before the other ran)."""
    raw = _big_png(5000, 5000)
    order: list[str] = []

    async def photo() -> None:
        await prepare(raw, 50 * 1024 * 1024)
        order.append("photo")

    async def other() -> None:
        await asyncio.sleep(0)
        order.append("other")

    await asyncio.gather(photo(), other())
    assert order == ["other", "photo"]


def test_processing_the_largest_picture_stays_under_its_memory_ceiling(tmp_path: Path) -> None:
    """A 25-megapixel RGBA picture (100 MB of pixels) in a fresh interpreter: the peak
    resident memory it adds stays under 250 MB (the server's target is 300 MB in all)."""
    picture = tmp_path / "big.png"
    picture.write_bytes(_big_png(5000, 5000))
    script = (
        "import resource, sys\n"
        "from bot.adapters.photo_store import process\n"
        "raw = open(sys.argv[1], 'rb').read()\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "kept = process(raw, 50 * 1024 * 1024)\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(before, after, kept.width * kept.height)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(picture)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    before, after, pixels = (int(x) for x in done.stdout.split())
    assert pixels == 25_000_000
    added_mb = (after - before) / 1024  # ru_maxrss is in kilobytes on Linux
    assert added_mb < 250, f"{added_mb:.0f} MB added"


@pytest.mark.parametrize(("width", "height"), [(50_000, 50_000), (8_000, 8_000)])
def test_an_image_with_too_many_pixels_is_refused_for_its_pixels(width: int, height: int) -> None:
    """A small file that decodes huge: refused for its pixels, not for its bytes (50,000 x
    50,000 trips Pillow's own guard; 8,000 x 8,000 passes it but not ``MAX_PIXELS``)."""
    data = png_of_size(width, height)
    assert len(data) < 1000
    with pytest.raises(PhotoRefusedError) as refused:
        process(data)
    assert refused.value.code == "too_many_pixels"


@pytest.mark.parametrize("lang", ["en", "ml", "ta", "kn"])
def test_each_refusal_names_the_limit_it_passed(lang: str) -> None:
    tr = translator(lang)
    by_bytes = photo_refused("too_large", 1, 10, tr, max_megapixels=50)
    by_pixels = photo_refused("too_many_pixels", 1, 10, tr, max_megapixels=50)
    assert "10" in by_bytes
    assert "50" not in by_bytes
    assert "50" in by_pixels
    assert "10" not in by_pixels
    assert "MB" not in by_pixels
    if lang != "en":
        assert by_pixels != photo_refused(
            "too_many_pixels", 1, 10, translator("en"), max_megapixels=50
        )

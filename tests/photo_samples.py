"""Pillow-made images for the photo tests: a JPEG with GPS EXIF, a PNG, a text file
named .jpg, an image larger than 11 MB."""

from __future__ import annotations

import io
import os

from PIL import Image

GPS_IFD = 0x8825


def jpeg_with_gps(
    color: tuple[int, int, int] = (150, 90, 40), size: tuple[int, int] = (640, 480)
) -> bytes:
    """A JPEG whose EXIF holds the camera, the time and a GPS position (Kunnamangalam)."""
    image = Image.new("RGB", size, color)
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0132] = "2026:03:01 09:30:00"  # DateTime
    exif.get_ifd(GPS_IFD).update(
        {
            1: "N",
            2: (11.0, 18.0, 30.0),
            3: "E",
            4: (75.0, 52.0, 10.0),
        }
    )
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes(), quality=90)
    return out.getvalue()


def png(color: tuple[int, int, int, int] = (20, 120, 60, 255)) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (400, 300), color).save(out, "PNG")
    return out.getvalue()


def text_as_jpg() -> bytes:
    """What a file named ``cow.jpg`` holding text is: not an image."""
    return b"This is not a photo of a cow, only text in a file named cow.jpg.\n" * 20


def eleven_mb() -> bytes:
    """A real image (a BMP of noise) of more than 11 MB."""
    width, height = 2100, 1900  # 3 bytes a pixel: 11.4 MB
    image = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))
    out = io.BytesIO()
    image.save(out, "BMP")
    data = out.getvalue()
    assert len(data) > 11 * 1024 * 1024
    return data


def has_gps(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        return bool(exif) and (GPS_IFD in exif or bool(exif.get_ifd(GPS_IFD)))


def png_of_size(width: int, height: int) -> bytes:
    """A tiny PNG file whose header says ``width`` x ``height`` pixels (never decoded:
    a decompression bomb's first bytes)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + chunk(b"IEND", b"")
    )

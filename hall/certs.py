"""``cardtable hall certs``: a hall's own certificate authority and the console machine's certificate, for a hall
whose organiser has none: the broker's TLS listener (``mqtts://``) and the scoreboard's and console's HTTPS.

Writes into a new folder ``ca.pem`` (the authority's certificate: every machine of the hall, and every browser that
opens the scoreboard or the console, trusts it), ``server.pem`` and ``server.key`` (mode 0600): the console
machine's certificate for each of its ``names`` (host names and addresses, as the machines and browsers reach it),
signed by that authority. The authority's key is used once and never written: nobody can sign another certificate
the hall trusts; a new machine name means running it again, and ``hall setup`` again with the new files.

>>> import tempfile, ssl
>>> out = Path(tempfile.mkdtemp()) / "certs"
>>> [p.name for p in make(out, ["console.hall", "10.0.0.2"])]
['ca.pem', 'server.pem', 'server.key']
>>> oct((out / "server.key").stat().st_mode & 0o777)
'0o600'
>>> ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(out / "server.pem", out / "server.key")
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from pathlib import Path

from referee.catalogue import Refusal

DAYS = 397  # a season of tournaments; browsers refuse server certificates valid longer than 398 days


class CertsError(Refusal):
    """Certificates that cannot be made as asked (the catalogue's ``hall.certs.*``); nothing is written."""

    section = "hall.certs"


def _name(text: str):
    from cryptography import x509

    try:
        return x509.IPAddress(ipaddress.ip_address(text))
    except ValueError:
        if not text or any(c.isspace() or c in "/:@" for c in text):
            raise CertsError("bad_name", name=text) from None
        return x509.DNSName(text)


def make(out: Path, names: list[str]) -> list[Path]:
    """The authority's certificate and the server's certificate and key for ``names``, in the new folder ``out``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CertsError("not_empty", out=out)
    alt = x509.SubjectAlternativeName([_name(n) for n in names])
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"cardtable hall CA {now:%Y-%m-%d}")])

    def certificate(subject, public, extensions):
        builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(ca_name).public_key(public)
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
                   .not_valid_after(now + datetime.timedelta(days=DAYS))
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), False)
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), False))
        for extension, critical in extensions:
            builder = builder.add_extension(extension, critical)
        return builder.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)

    usage = dict.fromkeys(("content_commitment", "key_encipherment", "data_encipherment", "key_agreement",
                           "encipher_only", "decipher_only"), False)
    ca = certificate(ca_name, ca_key.public_key(), [
        (x509.BasicConstraints(ca=True, path_length=0), True),
        (x509.KeyUsage(digital_signature=False, key_cert_sign=True, crl_sign=True, **usage), True)])
    server = certificate(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]), key.public_key(), [
        (x509.BasicConstraints(ca=False, path_length=None), True),
        (x509.KeyUsage(digital_signature=True, key_cert_sign=False, crl_sign=False, **usage), True),
        (x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False), (alt, False)])
    secret = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                               serialization.NoEncryption())
    out.mkdir(parents=True, exist_ok=True, mode=0o700)
    written = []
    for name, data, mode in (("ca.pem", ca, 0o644), ("server.pem", server, 0o644), ("server.key", secret, 0o600)):
        fd = os.open(out / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        written.append(out / name)
    return written


__all__ = ["DAYS", "CertsError", "make"]

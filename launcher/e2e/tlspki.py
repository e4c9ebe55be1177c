"""Certificates for the TLS end-to-end test, made the way docs/running.md ("TLS") tells users to: ovs-pki's controller
and switch CAs, the controller's key as the PKCS12 file Beacon reads, and a rogue switch certificate that no CA of
Beacon's signed (self-signed by openssl)."""

import socket
import ssl
import subprocess
from pathlib import Path

PASSWORD = "e2e-tls"
# The only DPID the switch certificate may claim (controller.tlsSwitchIdentities): s1 of test_tls's network.
BOUND_DPID = 0x801


def create(directory):
    """Makes the PKI in `directory`; returns the beacon.properties lines for a TLS listener on `port` (format key)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    pki = d / "pki"
    for args in (["init"], ["req+sign", "ctl", "controller"], ["req+sign", "sc", "switch"]):
        subprocess.run(["ovs-pki", f"--dir={pki}", "--force", *args], cwd=d, check=True, capture_output=True,
                       timeout=120)
    subprocess.run(["openssl", "pkcs12", "-export", "-in", "ctl-cert.pem", "-inkey", "ctl-privkey.pem", "-name",
                    "beacon", "-out", "beacon.p12", "-passout", f"pass:{PASSWORD}"], cwd=d, check=True,
                   capture_output=True, timeout=60)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", "rogue-privkey.pem", "-out", "rogue-cert.pem", "-days", "2", "-subj",
                    "/CN=rogue switch"], cwd=d, check=True, capture_output=True, timeout=60)
    # The switch certificate's common name, as ovs-pki made it ("sc id:<uuid>"), bound to one DPID.
    subject = subprocess.run(["openssl", "x509", "-noout", "-subject", "-nameopt", "RFC2253", "-in", "sc-cert.pem"],
                             cwd=d, check=True, capture_output=True, text=True, timeout=60).stdout
    cn = next(part[3:] for part in subject.strip().removeprefix("subject=").split(",") if part.startswith("CN="))
    (d / "switch-identities").write_text(f"# made by the e2e test\n{BOUND_DPID:016x} {cn}\n")
    return d


def settings(directory, port):
    d = Path(directory)
    return [f"controller.tlsListenPort={port}", f"controller.tlsKeyStore={d / 'beacon.p12'}",
            f"controller.tlsKeyStorePassword={PASSWORD}",
            f"controller.tlsTrustStore={d / 'pki' / 'switchca' / 'cacert.pem'}",
            f"controller.tlsSwitchIdentities={d / 'switch-identities'}"]


def ovs_ssl_args(directory):
    """`ovs-vsctl set-ssl` arguments: the switch's key and certificate, and the CA that signed Beacon's."""
    d = Path(directory)
    return [str(d / "sc-privkey.pem"), str(d / "sc-cert.pem"), str(d / "pki" / "controllerca" / "cacert.pem")]


def rogue_handshake(directory, port, timeout=10):
    """A TLS client with the rogue certificate: returns how the controller ended the connection (an alert, a close),
    or raises AssertionError when it answered like a switch's controller (sent anything but an alert)."""
    d = Path(directory)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the rogue does not care who the controller is
    context.load_cert_chain(d / "rogue-cert.pem", d / "rogue-privkey.pem")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
        local_port = raw.getsockname()[1]
        try:
            with context.wrap_socket(raw) as tls:
                # TLS 1.3: the client's handshake ends before the controller checked its certificate; the refusal
                # arrives on the first read.
                data = tls.recv(64)
        except (ssl.SSLError, ConnectionResetError, BrokenPipeError) as e:
            return local_port, f"refused ({e.__class__.__name__}: {e})"
        if data:
            raise AssertionError(f"the controller sent {data!r} to a switch with a rogue certificate")
        return local_port, "closed"


def plaintext_hello(port, hello, timeout=10):
    """A plaintext OpenFlow HELLO to the TLS port: returns the local port once the controller has closed the
    connection (after its alert, if any)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        local_port = sock.getsockname()[1]
        sock.sendall(hello)
        try:
            while sock.recv(4096):
                pass  # a TLS alert record, then the close
        except ConnectionResetError:
            pass  # a reset is a close too
        return local_port

package net.beaconcontroller.topology.internal;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import net.beaconcontroller.packet.Bytes;
import net.beaconcontroller.packet.Lldp;
import net.beaconcontroller.packet.LldpTlv;
import net.beaconcontroller.packet.LldpTlv.OrganizationSpecific;

/**
 * Beacon's discovery probe: the standard discovery LLDPDU ({@link Lldp#forDiscovery}: chassis id from the DPID, port
 * id, TTL, the ONF DPID TLV) plus an organisationally specific TLV that authenticates it: the sending DPID (8 bytes),
 * port (2), the send time (8, this instance's {@code System.nanoTime()}, or the cluster's time in nanoseconds) and an
 * HMAC-SHA256 (32) over those 18 bytes with a key drawn at random per instance, or per cluster: a probe one member
 * sends may come back at a switch another member masters. A host cannot make a probe that verifies, cannot turn one into a probe of
 * another port, and a captured probe stops verifying once it is older than the maximum age.
 *
 * <p>What this cannot stop: a host attached to two switches relaying a fresh probe at once (a wormhole). Such a link
 * is unidirectional unless the host relays the other way too, and only bidirectional links join islands.
 */
final class ProbeCodec {
    /** Locally assigned company id (CID format, not an IEEE OUI): no vendor's TLV can collide with it. */
    static final int BEACON_CID = 0x0abeac;
    static final int AUTH_SUBTYPE = 1;
    static final int AUTH_LENGTH = 8 + 2 + 8 + 32;
    private static final int SIGNED_LENGTH = 18;
    private static final String ALGORITHM = "HmacSHA256";

    /** What an LLDPDU that came back is. */
    enum Verdict { VALID, FOREIGN, MALFORMED, FORGED, STALE }

    /** The verdict; for a valid probe where it was sent from, else why it was rejected. */
    record Result(Verdict verdict, long dpid, int port, long sent, String why) {
        static Result rejected(Verdict v, String why) {
            return new Result(v, 0, 0, 0, why);
        }
    }

    /** Replaced whole when the cluster's key changes; cloned for each use. */
    private volatile Mac prototype;

    /** With a key of its own. */
    ProbeCodec() {
        this(newKey());
    }

    /** With {@code key}: instances that share it verify each other's probes (the members of a cluster). */
    ProbeCodec(byte[] key) {
        rekey(key);
    }

    static byte[] newKey() {
        var key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }

    /** Signs and verifies with {@code key} from now on. */
    void rekey(byte[] key) {
        try {
            var mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            prototype = mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JRE has no " + ALGORITHM, e);
        }
    }

    /** The LLDPDU of a probe sent at {@code now} out of {@code port} of {@code dpid}. */
    Lldp probe(long dpid, int port, long now) {
        var info = ByteBuffer.allocate(AUTH_LENGTH).putLong(dpid).putShort((short) port).putLong(now);
        info.put(hmac(info.array()));
        var base = Lldp.forDiscovery(dpid, port, Lldp.DEFAULT_TTL);
        var tlvs = new ArrayList<LldpTlv>(base.tlvs());
        tlvs.add(tlvs.size() - 1, new OrganizationSpecific(BEACON_CID, AUTH_SUBTYPE, Bytes.of(info.array())));
        return new Lldp(tlvs);
    }

    /**
     * Checks an LLDPDU that arrived at {@code now}: Beacon's, authentic, and sent at most {@code maxAgeNanos} ago, give
     * or take {@code skewNanos} (how far the sender's clock may be from this one: zero when it is this one).
     */
    Result verify(Lldp lldp, long now, long maxAgeNanos, long skewNanos) {
        if (lldp.chassisId().isEmpty() || lldp.portId().isEmpty() || lldp.ttl().isEmpty()) {
            return Result.rejected(Verdict.MALFORMED, "a mandatory TLV (chassis id, port id, TTL) is missing");
        }
        var auth = lldp.organizationSpecific(BEACON_CID, AUTH_SUBTYPE);
        if (auth.isEmpty()) {
            return Result.rejected(Verdict.FOREIGN, "no Beacon authentication TLV");
        }
        if (auth.size() > 1 || auth.get(0).info().length() != AUTH_LENGTH) {
            return Result.rejected(Verdict.MALFORMED, "authentication TLV count " + auth.size() + " or length "
                    + auth.get(0).info().length() + ", expected one of " + AUTH_LENGTH + " bytes");
        }
        var info = auth.get(0).info().toArray();
        var b = ByteBuffer.wrap(info);
        long dpid = b.getLong();
        int port = b.getShort() & 0xffff;
        long sent = b.getLong();
        var claimed = lldp.discovery();
        if (claimed.isEmpty() || claimed.get().dpid() != dpid || claimed.get().portNumber() != port) {
            return Result.rejected(Verdict.FORGED, "chassis/port TLVs " + claimed.orElse(null)
                    + " disagree with the authenticated sender");
        }
        var expected = hmac(info);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(info, SIGNED_LENGTH, AUTH_LENGTH))) {
            return Result.rejected(Verdict.FORGED, "HMAC does not verify");
        }
        long age = now - sent;
        if (age < -skewNanos || age > maxAgeNanos + skewNanos) {
            return Result.rejected(Verdict.STALE, "sent " + age / 1_000_000 + " ms ago");
        }
        return new Result(Verdict.VALID, dpid, port, sent, null);
    }

    /** The HMAC of the first 18 bytes of {@code data}. */
    private byte[] hmac(byte[] data) {
        Mac mac;
        var p = prototype;
        try {
            // The key is set up once; a clone per use is far cheaper than Mac.getInstance and keeps threads apart.
            synchronized (p) {
                mac = (Mac) p.clone();
            }
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(ALGORITHM + " cannot be cloned", e);
        }
        mac.update(data, 0, SIGNED_LENGTH);
        return mac.doFinal();
    }
}

package net.beaconcontroller.devicemanager.internal;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.function.Consumer;

import net.beaconcontroller.core.ISharedState;
import net.beaconcontroller.core.SharedMap;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The device manager's part of a cluster's shared state: the latest record of every host, keyed by MAC and VLAN. A
 * host's frames reach only the master of the switch they enter, so that member learns it, writes its record and the
 * others take the record in. A record's time to live is the idle timeout from its last write, so the map forgets
 * hosts by itself; every member also ages hosts locally by their last-seen time, as alone.
 *
 * <p>Entry: the writer's id (8 bytes, drawn at random when it joined: a member ignores its own entries coming back,
 * which may be older than what it has learned since within the same second), the record's version (8, see
 * {@link Tracked#version}), then the record: MAC (8), VLAN (2),
 * attachment dpid (8) and port (2), first and last seen (8 each, epoch seconds), IPv4 count (2) and addresses (4
 * each).
 */
final class SharedDevices implements AutoCloseable {
    /** A record as another member wrote it. */
    record Written(Device device, long writer, long version) { }

    static final String MAP = DeviceManager.NAME + ".devices";
    private static final int FIXED = 8 + 2 + 8 + 2 + 8 + 8 + 2;

    private final long self = new SecureRandom().nextLong();
    private final SharedMap devices;
    private final SharedMap.Subscription subscription;

    /** Joins the shared state: {@code seen} is told every record a member wrote, {@code malformed} what is wrong. */
    SharedDevices(ISharedState state, Consumer<Written> seen, Consumer<String> malformed) {
        devices = state.map(MAP);
        subscription = devices.subscribe((key, value) -> {
            // Gone: its time to live passed, and the members age it out by themselves.
            if (value == null) {
                return;
            }
            Written w;
            try {
                var b = ByteBuffer.wrap(value);
                long writer = b.getLong();
                if (writer == self) {
                    return;
                }
                w = new Written(decode(Arrays.copyOfRange(value, 2 * Long.BYTES, value.length)), writer, b.getLong());
            } catch (IllegalArgumentException | BufferUnderflowException e) {
                malformed.accept("shared host record " + key + ": " + e);
                return;
            }
            seen.accept(w);
        });
    }

    /** The id this member writes its records under. */
    long self() {
        return self;
    }

    void write(Device d, long version, Duration ttl) {
        devices.set(Long.toHexString(DeviceStore.key(d.mac(), d.vlan())), entry(self, version, d), ttl);
    }

    /** The map entry {@code writer} writes for version {@code version} of {@code d}. */
    static byte[] entry(long writer, long version, Device d) {
        var record = encode(d);
        return ByteBuffer.allocate(2 * Long.BYTES + record.length).putLong(writer).putLong(version).put(record)
                .array();
    }

    @Override
    public void close() {
        subscription.close();
    }

    static byte[] encode(Device d) {
        var b = ByteBuffer.allocate(FIXED + 4 * d.ipv4().size()).putLong(d.mac()).putShort((short) d.vlan())
                .putLong(d.attachment().dpid()).putShort((short) d.attachment().port())
                .putLong(d.firstSeen().getEpochSecond()).putLong(d.lastSeen().getEpochSecond())
                .putShort((short) d.ipv4().size());
        d.ipv4().forEach(b::putInt);
        return b.array();
    }

    static Device decode(byte[] record) {
        var b = ByteBuffer.wrap(record);
        long mac = b.getLong();
        int vlan = b.getShort() & 0xffff;
        var at = new SwitchPort(b.getLong(), b.getShort() & 0xffff);
        var first = Instant.ofEpochSecond(b.getLong());
        var last = Instant.ofEpochSecond(b.getLong());
        int n = b.getShort() & 0xffff;
        if (b.remaining() != 4 * n) {
            throw new IllegalArgumentException(n + " addresses in " + b.remaining() + " bytes");
        }
        var ips = new HashSet<Integer>();
        for (int i = 0; i < n; i++) {
            ips.add(b.getInt());
        }
        return new Device(mac, vlan, ips, at, first, last);
    }
}

package net.beaconcontroller.devicemanager.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;

import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.devicemanager.Device;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The device manager's table in a cluster's shared state: the latest record of every host, keyed by MAC and VLAN ({@link DeviceStore#key}, in hex). A
 * host's frames reach only the master of the switch they enter, so that member learns it, writes its record and the
 * others take the record in. A record's time to live is the idle timeout from its last write, so the table forgets
 * hosts by itself; every member also ages hosts locally by their last-seen time, as alone.
 *
 * <p>Value: the record's version (8, see {@link Tracked#version}), MAC (8), VLAN (2), attachment dpid (8) and port
 * (2), first and last seen (8 each, epoch seconds), IPv4 count (2) and addresses (4 each).
 */
final class SharedDevices implements SharedCodec<SharedDevices.Record> {
    /** A host's record at one of its versions. */
    record Record(Device device, long version) { }

    static final String TABLE = DeviceManager.NAME + ".devices";
    static final SharedDevices CODEC = new SharedDevices();

    private SharedDevices() {
    }

    @Override
    public int version() {
        return 1;
    }

    @Override
    public void write(Record r, DataOutput out) throws IOException {
        var d = r.device();
        out.writeLong(r.version());
        out.writeLong(d.mac());
        out.writeShort(d.vlan());
        out.writeLong(d.attachment().dpid());
        out.writeShort(d.attachment().port());
        out.writeLong(d.firstSeen().getEpochSecond());
        out.writeLong(d.lastSeen().getEpochSecond());
        out.writeShort(d.ipv4().size());
        for (int ip : d.ipv4()) {
            out.writeInt(ip);
        }
    }

    @Override
    public Record read(DataInput in) throws IOException {
        long version = in.readLong();
        long mac = in.readLong();
        int vlan = in.readUnsignedShort();
        var at = new SwitchPort(in.readLong(), in.readUnsignedShort());
        var first = Instant.ofEpochSecond(in.readLong());
        var last = Instant.ofEpochSecond(in.readLong());
        int n = in.readUnsignedShort();
        var ips = new HashSet<Integer>();
        for (int i = 0; i < n; i++) {
            ips.add(in.readInt());
        }
        return new Record(new Device(mac, vlan, ips, at, first, last), version);
    }
}

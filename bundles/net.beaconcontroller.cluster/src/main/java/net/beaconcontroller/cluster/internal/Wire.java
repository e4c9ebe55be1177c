package net.beaconcontroller.cluster.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A message from one member to another, sent as bytes on the receiver's topic (plain bytes: no class of this bundle
 * has to be known to Hazelcast's serializer).
 *
 * @param kind   what it asks or says
 * @param dpid   the switch it is about
 * @param id     the migration or barrier it belongs to (0 for a write)
 * @param from   the sender's member id
 * @param data   a WRITE's OpenFlow message, a MIGRATE's target member id, a BARRIER's member to answer, a failed
 *               BARRIER_DONE's reason (UTF-8), else empty
 */
record Wire(Kind kind, long dpid, long id, String from, byte[] data) {
    enum Kind {
        /** An OpenFlow message for a switch the sender is SLAVE of: the receiver masters it. */
        WRITE,
        /** Hand switch dpid to the member named in data (to its master). */
        MIGRATE,
        /** Phase 1, old master to target: become EQUAL and wait for the marker. */
        PREPARE,
        /** The target is EQUAL and watching for the marker. */
        READY,
        /** Phase 3, old master to target: everything before the marker is flushed; become MASTER. */
        DONE,
        /** Phase 4 finished, target to old master: the target is MASTER. */
        COMPLETE,
        /** The migration is given up: the old master keeps the switch. */
        ABORT,
        /** Behind the WRITEs the sender forwarded before it: the receiver, master, sends the switch a barrier. */
        BARRIER,
        /** The switch answered the BARRIER (data empty), or it failed (data: why). */
        BARRIER_DONE
    }

    static final byte[] NONE = new byte[0];

    /** The same message, sent by {@code sender}. */
    Wire sentBy(String sender) {
        return new Wire(kind, dpid, id, sender, data);
    }

    byte[] encode() {
        var bytes = new ByteArrayOutputStream(32 + data.length);
        try (var out = new DataOutputStream(bytes)) {
            out.writeByte(kind.ordinal());
            out.writeLong(dpid);
            out.writeLong(id);
            out.writeUTF(from);
            out.writeInt(data.length);
            out.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Wire decode(byte[] bytes) {
        try (var in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            var kind = Kind.values()[in.readUnsignedByte()];
            long dpid = in.readLong();
            long id = in.readLong();
            var from = in.readUTF();
            var data = new byte[in.readInt()];
            in.readFully(data);
            return new Wire(kind, dpid, id, from, data);
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("malformed cluster message", e);
        }
    }
}

package net.beaconcontroller.cluster.internal;

/**
 * A message from one member to another, sent as bytes on the receiver's topic {@code beacon.member.<id>} (plain
 * bytes: Hazelcast's serializer never needs a class of this bundle). Each kind has a stable tag on the wire, and every
 * message starts with {@link #VERSION}, so that members of two releases refuse each other's messages by name instead
 * of misreading them.
 *
 * <p>Every message names the switch it is about and the member that sent it; a migration's messages carry the
 * migration's id, a barrier's the barrier's.
 */
sealed interface Message {
    int VERSION = 1;

    long dpid();

    String from();

    /** An OpenFlow message for a switch the sender is SLAVE of: the receiver masters it. */
    record Write(long dpid, String from, byte[] openflow) implements Message { }

    /**
     * Behind the WRITEs the sender forwarded before it: the receiver, master, sends the switch a barrier and answers
     * {@code asker} (the sender, unless a member passed the barrier on because the switch had moved).
     */
    record Barrier(long dpid, String from, long id, String asker) implements Message { }

    /** The switch answered barrier {@code id}: {@code failure} is null, or says why it did not. */
    record BarrierDone(long dpid, String from, long id, String failure) implements Message { }

    /** Hand the switch to {@code target}: asked of the switch's master by any member. */
    record Migrate(long dpid, String from, String target) implements Message { }

    /**
     * The sender asserted MASTER on the switch of {@code dead}, a member that left, before the masters map could say
     * so: the receiver sends its writes for the switch to the sender meanwhile.
     */
    record TakenOver(long dpid, String from, String dead) implements Message { }

    /**
     * The sender held MASTER on the switch and has stepped down for the receiver, which the masters map names: the
     * receiver asserts MASTER again, since the switch demoted it (without telling) if the sender's request came last.
     */
    record Reassert(long dpid, String from) implements Message { }

    /** The four-phase migration's steps (see {@link Phase}). */
    record Step(Phase phase, long dpid, String from, long id) implements Message { }

    enum Phase {
        /** Phase 1, old master to target: become EQUAL and wait for the marker. */
        PREPARE,
        /** The target is EQUAL and watching for the marker. */
        READY,
        /** Phase 3, old master to target: everything before the marker is flushed; become MASTER. */
        DONE,
        /** Phase 4 finished, target to old master: the target is MASTER. */
        COMPLETE,
        /** The migration is given up: the old master keeps the switch. */
        ABORT
    }

    default byte[] encode() {
        return Codec.encode(VERSION, 48, out -> {
            out.writeByte(tag(this));
            out.writeLong(dpid());
            out.writeUTF(from());
            if (this instanceof Write w) {
                out.writeInt(w.openflow().length);
                out.write(w.openflow());
            } else if (this instanceof Barrier b) {
                out.writeLong(b.id());
                out.writeUTF(b.asker());
            } else if (this instanceof BarrierDone d) {
                out.writeLong(d.id());
                out.writeBoolean(d.failure() != null);
                if (d.failure() != null) {
                    out.writeUTF(d.failure());
                }
            } else if (this instanceof Migrate m) {
                out.writeUTF(m.target());
            } else if (this instanceof TakenOver t) {
                out.writeUTF(t.dead());
            } else if (this instanceof Step st) {
                out.writeLong(st.id());
            }
        });
    }

    /** @throws IllegalArgumentException for bytes that are not a message of this version */
    static Message decode(byte[] bytes) {
        return Codec.decode(bytes, "cluster message", VERSION, in -> {
            int tag = in.readUnsignedByte();
            long dpid = in.readLong();
            var from = in.readUTF();
            return switch (tag) {
                case 1 -> {
                    int length = in.readInt();
                    if (length < 0 || length > in.available()) {
                        throw new IllegalArgumentException("cluster message with a " + length
                                + "-byte OpenFlow message in " + in.available() + " bytes");
                    }
                    var openflow = new byte[length];
                    in.readFully(openflow);
                    yield new Write(dpid, from, openflow);
                }
                case 2 -> new Barrier(dpid, from, in.readLong(), in.readUTF());
                case 3 -> {
                    long id = in.readLong();
                    yield new BarrierDone(dpid, from, id, in.readBoolean() ? in.readUTF() : null);
                }
                case 4 -> new Migrate(dpid, from, in.readUTF());
                case 5, 6, 7, 8, 9 -> new Step(phase(tag), dpid, from, in.readLong());
                case 10 -> new TakenOver(dpid, from, in.readUTF());
                case 11 -> new Reassert(dpid, from);
                default -> throw new IllegalArgumentException("cluster message with unknown tag " + tag);
            };
        });
    }

    /** Stable on the wire, whatever the order of declarations here. */
    private static int tag(Message m) {
        if (m instanceof Write) {
            return 1;
        } else if (m instanceof Barrier) {
            return 2;
        } else if (m instanceof BarrierDone) {
            return 3;
        } else if (m instanceof Migrate) {
            return 4;
        } else if (m instanceof TakenOver) {
            return 10;
        } else if (m instanceof Reassert) {
            return 11;
        }
        return switch (((Step) m).phase()) {
            case PREPARE -> 5;
            case READY -> 6;
            case DONE -> 7;
            case COMPLETE -> 8;
            case ABORT -> 9;
        };
    }

    private static Phase phase(int tag) {
        return switch (tag) {
            case 5 -> Phase.PREPARE;
            case 6 -> Phase.READY;
            case 7 -> Phase.DONE;
            case 8 -> Phase.COMPLETE;
            default -> Phase.ABORT;
        };
    }
}

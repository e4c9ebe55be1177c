package net.beaconcontroller.openflow;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

import net.beaconcontroller.openflow.action.OFAction;
import net.beaconcontroller.openflow.action.OFActions;

/**
 * FLOW_MOD ({@code ofp_flow_mod}): adds, changes or deletes flows. Build one with {@link #builder()}, which starts
 * from the usual defaults (ADD, priority {@link #DEFAULT_PRIORITY}, no timeouts, {@link #NO_BUFFER}, out port
 * {@link OFPort#NONE}, match-all, no actions = drop):
 *
 * <pre>{@code
 * OFFlowMod fm = OFFlowMod.builder()
 *         .match(OFMatch.fromPacket(pi.frame(), pi.inPort()))
 *         .idleTimeout(5)
 *         .bufferId(pi.bufferId())
 *         .actions(List.of(new OFActionOutput(outPort, 0)))
 *         .build();
 * }</pre>
 *
 * @param match       the fields a packet must match
 * @param cookie      opaque controller-chosen id of the flow
 * @param command     what to do
 * @param idleTimeout seconds without a matching packet before the flow expires, 0 for never
 * @param hardTimeout seconds before the flow expires regardless, 0 for never
 * @param priority    higher wins among overlapping wildcard flows
 * @param bufferId    a packet buffered at the switch to run through the flow after it is applied, or
 *                    {@link #NO_BUFFER}
 * @param outPort     for DELETE*: only flows that output to this port ({@link OFPort#NONE}: any); ignored otherwise
 * @param flags       {@code FLAG_*} bits
 * @param actions     the flow's actions; empty means drop
 */
public record OFFlowMod(int xid, OFMatch match, long cookie, Command command, int idleTimeout, int hardTimeout,
        int priority, long bufferId, int outPort, int flags, List<OFAction> actions) implements OFMessage {
    /** Size without actions. */
    public static final int MIN_LENGTH = 72;
    /** {@code OFP_DEFAULT_PRIORITY}. */
    public static final int DEFAULT_PRIORITY = 0x8000;
    /** Send FLOW_REMOVED when the flow expires or is deleted. */
    public static final int FLAG_SEND_FLOW_REM = 1 << 0;
    /** Refuse to add a flow that overlaps an existing one of the same priority. */
    public static final int FLAG_CHECK_OVERLAP = 1 << 1;
    /** An emergency flow, used only when the switch loses the controller connection. */
    public static final int FLAG_EMERG = 1 << 2;

    /** {@code ofp_flow_mod_command}. */
    public enum Command {
        ADD,
        MODIFY,
        MODIFY_STRICT,
        DELETE,
        DELETE_STRICT;

        private static final Command[] BY_VALUE = values();

        /** The wire value (declaration order). */
        public int value() {
            return ordinal();
        }

        /** @return the command, or {@code null} when {@code value} is not defined */
        public static Command fromValue(int value) {
            return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        }
    }

    public OFFlowMod {
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(command, "command");
        OFWire.u16(idleTimeout, "idle_timeout");
        OFWire.u16(hardTimeout, "hard_timeout");
        OFWire.u16(priority, "priority");
        OFWire.u32(bufferId, "buffer_id");
        OFWire.u16(outPort, "out_port");
        OFWire.u16(flags, "flags");
        actions = List.copyOf(actions);
        OFWire.checkLength(MIN_LENGTH + OFActions.totalLength(actions), "FLOW_MOD");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this message's fields, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder().xid(xid).match(match).cookie(cookie).command(command).idleTimeout(idleTimeout)
                .hardTimeout(hardTimeout).priority(priority).bufferId(bufferId).outPort(outPort).flags(flags)
                .actions(actions);
    }

    @Override
    public OFType type() {
        return OFType.FLOW_MOD;
    }

    @Override
    public int length() {
        return MIN_LENGTH + OFActions.totalLength(actions);
    }

    @Override
    public void writeTo(ByteBuffer buf) {
        OFWire.writeHeader(buf, VERSION, OFType.FLOW_MOD, length(), xid);
        match.writeTo(buf);
        // The hot path's answer to a PACKET_IN: the fixed fields go out as three 8-byte stores.
        buf.putLong(cookie)
                .putLong(((long) command.value() << 48) | ((long) idleTimeout << 32) | ((long) hardTimeout << 16)
                        | priority)
                .putLong((bufferId << 32) | ((long) outPort << 16) | flags);
        OFActions.writeList(buf, actions);
    }

    /** Reads the message at {@code start}; {@code buf}'s limit is the message end. Moves the position. */
    static OFFlowMod read(ByteBuffer buf, int start, int length, int xid) throws OFParseException {
        int c = buf.getShort(start + 56) & 0xffff;
        Command command = Command.fromValue(c);
        if (command == null) {
            throw new OFParseException("unknown flow mod command " + c);
        }
        buf.position(start + HEADER_LENGTH);
        OFMatch match = OFMatch.readFrom(buf);
        buf.position(start + MIN_LENGTH);
        List<OFAction> actions = OFActions.readList(buf, length - MIN_LENGTH);
        return new OFFlowMod(xid, match, buf.getLong(start + 48), command, buf.getShort(start + 58) & 0xffff,
                buf.getShort(start + 60) & 0xffff, buf.getShort(start + 62) & 0xffff,
                buf.getInt(start + 64) & 0xffff_ffffL, buf.getShort(start + 68) & 0xffff,
                buf.getShort(start + 70) & 0xffff, actions);
    }

    @Override
    public String toString() {
        return "OFFlowMod[xid=" + xid + ", " + command + ", match=" + match + ", cookie=" + OFWire.hex(cookie)
                + ", idle_timeout=" + idleTimeout + ", hard_timeout=" + hardTimeout + ", priority=" + priority
                + ", buffer_id=" + (bufferId == NO_BUFFER ? "none" : OFWire.hex(bufferId)) + ", out_port="
                + OFPort.toString(outPort) + ", flags=" + OFWire.hex(flags) + ", actions="
                + OFActions.toString(actions) + "]";
    }

    /** Collects the fields of a FLOW_MOD; every setter returns the builder. Not thread-safe. */
    public static final class Builder {
        private int xid;
        private OFMatch match = OFMatch.ALL;
        private long cookie;
        private Command command = Command.ADD;
        private int idleTimeout;
        private int hardTimeout;
        private int priority = DEFAULT_PRIORITY;
        private long bufferId = NO_BUFFER;
        private int outPort = OFPort.NONE;
        private int flags;
        private List<OFAction> actions = List.of();

        private Builder() {
        }

        public Builder xid(int xid) {
            this.xid = xid;
            return this;
        }

        public Builder match(OFMatch match) {
            this.match = match;
            return this;
        }

        public Builder cookie(long cookie) {
            this.cookie = cookie;
            return this;
        }

        public Builder command(Command command) {
            this.command = command;
            return this;
        }

        public Builder idleTimeout(int seconds) {
            this.idleTimeout = seconds;
            return this;
        }

        public Builder hardTimeout(int seconds) {
            this.hardTimeout = seconds;
            return this;
        }

        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        public Builder bufferId(long bufferId) {
            this.bufferId = bufferId;
            return this;
        }

        public Builder outPort(int outPort) {
            this.outPort = outPort;
            return this;
        }

        public Builder flags(int flags) {
            this.flags = flags;
            return this;
        }

        public Builder actions(List<OFAction> actions) {
            this.actions = actions;
            return this;
        }

        /** @throws IllegalArgumentException when a field is out of range or the message exceeds 65535 bytes */
        public OFFlowMod build() {
            return new OFFlowMod(xid, match, cookie, command, idleTimeout, hardTimeout, priority, bufferId, outPort,
                    flags, actions);
        }
    }
}

package net.beaconcontroller.openflow.statistics;

import java.nio.ByteBuffer;
import java.util.Objects;

import net.beaconcontroller.openflow.OFWire;

/**
 * One table of a TABLE stats reply ({@code ofp_table_stats}, 64 bytes).
 *
 * @param tableId      the table
 * @param name         its name, at most 32 characters
 * @param wildcards    the {@code OFPFW_*} wildcard bits the table supports
 * @param maxEntries   how many flows it can hold
 * @param activeCount  how many it holds
 * @param lookupCount  packets looked up (unsigned 64-bit)
 * @param matchedCount packets that hit a flow (unsigned 64-bit)
 */
public record OFTableStatsEntry(int tableId, String name, long wildcards, long maxEntries, long activeCount,
        long lookupCount, long matchedCount) {
    public static final int LENGTH = 64;
    public static final int NAME_LENGTH = 32;

    public OFTableStatsEntry {
        OFWire.u8(tableId, "table_id");
        OFWire.checkString(Objects.requireNonNull(name, "name"), NAME_LENGTH, "table name");
        OFWire.u32(wildcards, "wildcards");
        OFWire.u32(maxEntries, "max_entries");
        OFWire.u32(activeCount, "active_count");
    }

    public void writeTo(ByteBuffer buf) {
        buf.put((byte) tableId).put((byte) 0).putShort((short) 0);
        OFWire.writeString(buf, name, NAME_LENGTH);
        buf.putInt((int) wildcards).putInt((int) maxEntries).putInt((int) activeCount).putLong(lookupCount)
                .putLong(matchedCount);
    }

    /** Reads 64 bytes at the buffer's position (the caller has checked they are there) and advances past them. */
    static OFTableStatsEntry read(ByteBuffer buf) {
        int p = buf.position();
        buf.position(p + LENGTH);
        return new OFTableStatsEntry(buf.get(p) & 0xff, OFWire.readString(buf, p + 4, NAME_LENGTH),
                buf.getInt(p + 36) & 0xffff_ffffL, buf.getInt(p + 40) & 0xffff_ffffL, buf.getInt(p + 44) & 0xffff_ffffL,
                buf.getLong(p + 48), buf.getLong(p + 56));
    }

    @Override
    public String toString() {
        return "OFTableStatsEntry[table=" + tableId + " '" + name + "', wildcards=" + OFWire.hex(wildcards)
                + ", max_entries=" + maxEntries + ", active=" + activeCount + ", lookups="
                + Long.toUnsignedString(lookupCount) + ", matched=" + Long.toUnsignedString(matchedCount) + "]";
    }
}

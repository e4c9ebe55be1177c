package net.beaconcontroller.packet;

/**
 * An IEEE 802.1Q tag (TPID 0x8100): priority code point, CFI/DEI bit and VLAN id.
 *
 * @param priority PCP, 0..7
 * @param cfi the canonical format indicator (drop eligible indicator in newer revisions)
 * @param vlanId VID, 0..4095 (0 = priority tag only)
 */
public record VlanTag(int priority, boolean cfi, int vlanId) {
    public VlanTag {
        if (priority < 0 || priority > 7) {
            throw new IllegalArgumentException("VLAN priority must be 0..7, not " + priority);
        }
        if (vlanId < 0 || vlanId > 0xfff) {
            throw new IllegalArgumentException("VLAN id must be 0..4095, not " + vlanId);
        }
    }

    /** A tag for {@code vlanId} with priority 0. */
    public static VlanTag of(int vlanId) {
        return new VlanTag(0, false, vlanId);
    }

    /** Decodes the 16-bit tag control information. */
    public static VlanTag fromTci(int tci) {
        return new VlanTag((tci >>> 13) & 7, (tci & 0x1000) != 0, tci & 0xfff);
    }

    /** The 16-bit tag control information as on the wire. */
    public int tci() {
        return (priority << 13) | (cfi ? 0x1000 : 0) | vlanId;
    }

    @Override
    public String toString() {
        return "vlan " + vlanId + " pcp " + priority + (cfi ? " cfi" : "");
    }
}

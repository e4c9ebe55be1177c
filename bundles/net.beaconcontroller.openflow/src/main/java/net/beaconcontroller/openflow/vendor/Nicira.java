package net.beaconcontroller.openflow.vendor;

/**
 * Constants of the Nicira (Open vSwitch) vendor extension as used by Beacon: the controller role messages
 * ({@code nx_role_request}: OpenFlow header, vendor, subtype, role, 20 bytes in all).
 */
public final class Nicira {
    /** The Nicira vendor id ({@code NX_VENDOR_ID}). */
    public static final long VENDOR_ID = 0x0000_2320L;
    /** Subtype of a role request ({@code NXT_ROLE_REQUEST}). */
    public static final long NXT_ROLE_REQUEST = 10;
    /** Subtype of a role reply ({@code NXT_ROLE_REPLY}). */
    public static final long NXT_ROLE_REPLY = 11;
    /** Length of a role request or reply on the wire. */
    public static final int ROLE_MESSAGE_LENGTH = 20;

    private Nicira() {
    }
}

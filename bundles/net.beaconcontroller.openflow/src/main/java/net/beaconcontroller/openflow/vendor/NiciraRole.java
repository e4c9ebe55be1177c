package net.beaconcontroller.openflow.vendor;

/** Controller roles of the Nicira role extension ({@code nx_role}). */
public enum NiciraRole {
    /** Full access, possibly shared with other controllers ({@code NX_ROLE_OTHER}, 0). */
    OTHER,
    /** Full access; the switch demotes other masters to slaves ({@code NX_ROLE_MASTER}, 1). */
    MASTER,
    /** Read-only access, no asynchronous messages but PORT_STATUS ({@code NX_ROLE_SLAVE}, 2). */
    SLAVE;

    private static final NiciraRole[] BY_VALUE = values();

    /** The wire value (declaration order). */
    public long value() {
        return ordinal();
    }

    /** @return the role, or {@code null} when {@code value} is not a defined role */
    public static NiciraRole fromValue(long value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[(int) value] : null;
    }
}

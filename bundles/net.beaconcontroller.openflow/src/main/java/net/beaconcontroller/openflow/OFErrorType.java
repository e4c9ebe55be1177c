package net.beaconcontroller.openflow;

/** The OpenFlow 1.0 error types ({@code ofp_error_type}); the codes of each are in {@link OFErrorCode}. */
public enum OFErrorType {
    HELLO_FAILED,
    BAD_REQUEST,
    BAD_ACTION,
    FLOW_MOD_FAILED,
    PORT_MOD_FAILED,
    QUEUE_OP_FAILED;

    private static final OFErrorType[] BY_VALUE = values();

    /** The wire value (the types are numbered 0..5 in declaration order). */
    public int value() {
        return ordinal();
    }

    /** @return the type, or {@code null} when {@code value} is not an OpenFlow 1.0 error type (e.g. a vendor's) */
    public static OFErrorType fromValue(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
    }
}

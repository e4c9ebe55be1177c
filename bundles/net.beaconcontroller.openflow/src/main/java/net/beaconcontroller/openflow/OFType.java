package net.beaconcontroller.openflow;

/** OpenFlow 1.0 message types ({@code ofp_type}) with their wire values. */
public enum OFType {
    HELLO(0),
    ERROR(1),
    ECHO_REQUEST(2),
    ECHO_REPLY(3),
    VENDOR(4),
    FEATURES_REQUEST(5),
    FEATURES_REPLY(6),
    GET_CONFIG_REQUEST(7),
    GET_CONFIG_REPLY(8),
    SET_CONFIG(9),
    PACKET_IN(10),
    FLOW_REMOVED(11),
    PORT_STATUS(12),
    PACKET_OUT(13),
    FLOW_MOD(14),
    PORT_MOD(15),
    STATS_REQUEST(16),
    STATS_REPLY(17),
    BARRIER_REQUEST(18),
    BARRIER_REPLY(19),
    QUEUE_GET_CONFIG_REQUEST(20),
    QUEUE_GET_CONFIG_REPLY(21);

    // Wire values are 0..21 in declaration order, so the ordinal is the index.
    private static final OFType[] BY_VALUE = values();

    private final int value;

    OFType(int value) {
        this.value = value;
    }

    /** The {@code type} byte of the OpenFlow header. */
    public int value() {
        return value;
    }

    /**
     * Looks a wire value up without throwing: the reader sees unknown types from peers and turns them into an
     * {@link OFParseException} with its own context.
     *
     * @return the type, or {@code null} when {@code value} is not an OpenFlow 1.0 message type
     */
    public static OFType fromValue(int value) {
        return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
    }
}

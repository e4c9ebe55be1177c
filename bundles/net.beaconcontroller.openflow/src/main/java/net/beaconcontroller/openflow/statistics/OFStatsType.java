package net.beaconcontroller.openflow.statistics;

/** OpenFlow 1.0 statistics types ({@code ofp_stats_types}). */
public enum OFStatsType {
    DESC(0),
    FLOW(1),
    AGGREGATE(2),
    TABLE(3),
    PORT(4),
    QUEUE(5),
    VENDOR(0xffff);

    private final int value;

    OFStatsType(int value) {
        this.value = value;
    }

    /** The wire value of the {@code type} field of STATS_REQUEST and STATS_REPLY. */
    public int value() {
        return value;
    }

    /** @return the type, or {@code null} when {@code value} is not defined */
    public static OFStatsType fromValue(int value) {
        return switch (value) {
            case 0 -> DESC;
            case 1 -> FLOW;
            case 2 -> AGGREGATE;
            case 3 -> TABLE;
            case 4 -> PORT;
            case 5 -> QUEUE;
            case 0xffff -> VENDOR;
            default -> null;
        };
    }
}

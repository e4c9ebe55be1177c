package net.beaconcontroller.statistics;

import java.util.List;

/**
 * Port bandwidth from statistics polled every {@code statistics.period} seconds from every switch. Readable from any
 * thread.
 */
public interface IStatisticsService {
    /** Every port with a rate: each needs two replies, so a port appears one period after it was first polled. */
    List<PortBandwidth> getBandwidth();

    boolean isEnabled();

    /**
     * Starts or stops polling now (a runtime switch, as Floodlight's; {@code statistics.enabled} in the settings is
     * what Beacon starts with). Stopping forgets the rates.
     */
    void setEnabled(boolean enabled);
}

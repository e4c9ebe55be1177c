package net.beaconcontroller.topology;

/**
 * What link discovery has done since it started: probes sent and accepted, and the LLDP frames it ignored, by reason.
 * Every LLDP frame that reaches the controller is consumed (never flooded), whether it counts as accepted or ignored.
 *
 * @param probesSent    probes written to switch ports
 * @param probesAccepted probes that came back authentic and fresh and created or refreshed a link
 * @param malformed     LLDP frames that do not parse, or Beacon probes whose authentication TLV is cut or overlong
 * @param foreign       well-formed LLDP frames without Beacon's authentication TLV (hosts, other controllers)
 * @param forged        Beacon probes whose HMAC or claimed sender does not check out
 * @param stale         authentic probes that came back too late (or from the future): replays
 * @param unknownPort   authentic probes sent or received on a switch or port discovery does not know as up
 */
public record DiscoveryCounters(long probesSent, long probesAccepted, long malformed, long foreign, long forged,
        long stale, long unknownPort) {
    public static final DiscoveryCounters NONE = new DiscoveryCounters(0, 0, 0, 0, 0, 0, 0);

    /** Every LLDP frame that was ignored, whatever the reason. */
    public long ignored() {
        return malformed + foreign + forged + stale + unknownPort;
    }
}

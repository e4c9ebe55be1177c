package net.beaconcontroller.guard;

import java.util.List;

/**
 * What the guard did since it started, per port that ever went over a budget (ports that never did are not listed).
 *
 * @param ports by switch, then port
 */
public record GuardCounters(List<Port> ports) {
    /**
     * One port's counts.
     *
     * @param dpid            the switch
     * @param port            the port
     * @param droppedByPort   PACKET_INs dropped at the controller because the port was over its budget (the few that
     *                        arrive before its drop flow takes effect, or while it is being re-installed)
     * @param droppedBySwitch PACKET_INs from this port dropped because the whole switch was over its budget
     * @param dropFlows       drop flows installed on the port
     * @param episodes        guard episodes: blocks with less than 30 s between one's end and the next one's start are
     *                        one episode, logged once
     */
    public record Port(long dpid, int port, long droppedByPort, long droppedBySwitch, long dropFlows, long episodes) {
    }

    public GuardCounters {
        ports = List.copyOf(ports);
    }

    /** PACKET_INs dropped at the controller, all ports and causes together. */
    public long dropped() {
        return ports.stream().mapToLong(p -> p.droppedByPort() + p.droppedBySwitch()).sum();
    }

    /** Drop flows installed, all ports together. */
    public long dropFlows() {
        return ports.stream().mapToLong(Port::dropFlows).sum();
    }
}

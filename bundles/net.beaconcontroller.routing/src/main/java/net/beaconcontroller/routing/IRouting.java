package net.beaconcontroller.routing;

/** The routing app, while it runs: what it did with the PACKET_INs it saw. */
public interface IRouting {
    RoutingCounters getCounters();
}

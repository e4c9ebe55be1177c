package net.beaconcontroller.staticflowpusher;

import java.util.List;
import java.util.Optional;

/**
 * The static flows: kept in a file, written to their switches when added and whenever a switch connects, taken off
 * when removed. Safe from any thread.
 */
public interface IStaticFlowPusher {
    /**
     * Adds the flow, or replaces the one with its name (taking the old one off its switch first). An active flow goes
     * to its switch now if the switch is connected, else when it connects.
     *
     * @return whether its switch is connected now
     */
    boolean add(StaticFlow flow);

    /** Removes the flow with this name and takes it off its switch. */
    Optional<StaticFlow> remove(String name);

    /** Removes every flow of this switch; returns how many. */
    int clear(long dpid);

    /** Removes every flow; returns how many. */
    int clearAll();

    /** Every static flow, by switch then name. */
    List<StaticFlow> getFlows();
}

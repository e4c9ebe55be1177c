package net.beaconcontroller.connections;

import java.util.List;

/**
 * Keeps switch connections open while no core owns them. A connection not taken back within the holder's grace
 * period ({@code connections.graceSeconds}) is closed, and the switch reconnects as after any disconnection.
 * Thread-safe.
 */
public interface IConnectionHolder {
    /**
     * Takes over {@code connection}.
     *
     * @return false when holding is off ({@code connections.enabled=false}): the caller closes the connection
     */
    boolean deposit(HeldConnection connection);

    /** Hands every held connection to the caller, oldest first, and holds none afterwards. */
    List<HeldConnection> withdrawAll();
}

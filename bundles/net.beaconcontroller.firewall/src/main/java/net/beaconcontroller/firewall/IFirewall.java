package net.beaconcontroller.firewall;

import java.util.List;
import java.util.Optional;

/**
 * Floodlight's firewall: off until enabled; enabled, every packet entering the network is looked at by the rules in
 * ascending priority number, the first that matches decides, and a packet no rule matches is dropped, except L2
 * broadcasts (ARP requests, DHCP). Changes act on traffic already flowing: flows decided under the old rules are
 * removed. Rules and the on/off state are kept across restarts and shared by the members of a cluster. Any thread.
 */
public interface IFirewall {
    /** What became of a rule offered with {@link #add}. */
    sealed interface Added {
        /** Kept, under its id. */
        record Kept(FirewallRule rule) implements Added { }

        /** Not kept: {@code existing} says the same (priority aside). */
        record Similar(FirewallRule existing) implements Added { }
    }

    boolean isEnabled();

    void setEnabled(boolean enabled);

    /** Every rule, in the order packets are matched against them. */
    List<FirewallRule> getRules();

    /**
     * Keeps {@code rule} (its id is ignored) and applies it.
     *
     * @throws java.io.UncheckedIOException when the rules cannot be saved; then nothing changed
     */
    Added add(FirewallRule rule);

    /** Removes the rule with that id, if there is one, and applies the change. */
    Optional<FirewallRule> remove(int id);

    /**
     * Floodlight's subnet mask: an L2 broadcast carrying IPv4 passes only when its destination is a broadcast address
     * of a subnet of this size. Default 255.255.255.0.
     */
    int getSubnetMask();

    void setSubnetMask(int mask);

    /** Packets judged so far, by this instance. */
    FirewallCounters getCounters();
}

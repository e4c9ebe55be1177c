package net.beaconcontroller.firewall.internal;

import net.beaconcontroller.firewall.FirewallRule;

/** The firewall's verdict on one packet, and what made it. */
sealed interface Decision {
    boolean allowed();

    /** An L2 broadcast: allowed unless it carries IPv4 to an address that is not a subnet broadcast. */
    record Broadcast(boolean allowed) implements Decision { }

    /** The first rule that matched. */
    record ByRule(FirewallRule rule) implements Decision {
        @Override
        public boolean allowed() {
            return rule.action() == FirewallRule.Action.ALLOW;
        }
    }

    /** No rule matched: dropped. */
    record NoMatch() implements Decision {
        static final NoMatch INSTANCE = new NoMatch();

        @Override
        public boolean allowed() {
            return false;
        }
    }
}

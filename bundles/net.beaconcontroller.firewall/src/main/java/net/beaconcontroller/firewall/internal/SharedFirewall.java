package net.beaconcontroller.firewall.internal;

import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.core.shared.SharedKeys;
import net.beaconcontroller.firewall.internal.FirewallState.Stored;
import net.beaconcontroller.firewall.internal.FirewallState.Module;

/** What the members of a cluster share of the firewall: each value as its line in the {@link RuleFile}. */
final class SharedFirewall {
    /** The rules by id (in decimal). */
    static final String RULES = Firewall.NAME + ".rules";
    /** One entry, {@link #MODULE_KEY}: on/off and the subnet mask. */
    static final String MODULE = Firewall.NAME + ".module";
    static final String MODULE_KEY = "module";
    static final SharedKeys<String> MODULE_KEYS = SharedKeys.STRINGS;

    static final SharedKeys<Integer> RULE_KEYS = SharedKeys.INTS;

    static final SharedCodec<Stored> RULE_CODEC = SharedCodec.ofLines(1, RuleFile::line, RuleFile::parseRule);

    static final SharedCodec<Module> MODULE_CODEC = SharedCodec.ofLines(1, RuleFile::line, RuleFile::parseModule);

    private SharedFirewall() {
    }
}

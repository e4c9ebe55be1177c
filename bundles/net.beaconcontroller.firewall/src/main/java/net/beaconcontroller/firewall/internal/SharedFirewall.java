package net.beaconcontroller.firewall.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

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

    static final SharedKeys<Integer> RULE_KEYS = new SharedKeys<>() {
        @Override
        public String format(Integer id) {
            return Integer.toString(id);
        }

        @Override
        public Integer parse(String key) {
            return Integer.valueOf(key);
        }
    };

    static final SharedCodec<Stored> RULE_CODEC = new SharedCodec<>() {
        @Override
        public int version() {
            return 1;
        }

        @Override
        public void write(Stored rule, DataOutput out) throws IOException {
            out.writeUTF(RuleFile.line(rule));
        }

        @Override
        public Stored read(DataInput in) throws IOException {
            return RuleFile.parseRule(in.readUTF());
        }
    };

    static final SharedCodec<Module> MODULE_CODEC = new SharedCodec<>() {
        @Override
        public int version() {
            return 1;
        }

        @Override
        public void write(Module module, DataOutput out) throws IOException {
            out.writeUTF(RuleFile.line(module));
        }

        @Override
        public Module read(DataInput in) throws IOException {
            return RuleFile.parseModule(in.readUTF());
        }
    };

    private SharedFirewall() {
    }
}

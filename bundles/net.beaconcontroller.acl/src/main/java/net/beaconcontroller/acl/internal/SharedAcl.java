package net.beaconcontroller.acl.internal;

import net.beaconcontroller.acl.AclRule;
import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.core.shared.SharedKeys;

/** What the members of a cluster share of the ACL: its rules by id, each as its line in the {@link AclFile}. */
final class SharedAcl {
    static final String RULES = Acl.NAME + ".rules";

    static final SharedKeys<Integer> RULE_KEYS = SharedKeys.INTS;

    static final SharedCodec<AclRule> RULE_CODEC = SharedCodec.ofLines(1, AclFile::line, AclFile::parseRule);

    private SharedAcl() {
    }
}

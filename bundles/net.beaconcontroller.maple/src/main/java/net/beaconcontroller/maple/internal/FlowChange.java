package net.beaconcontroller.maple.internal;

/**
 * One change to a switch's flow table: add a rule, change the actions of the rule with the same match and priority
 * ({@code OFPFC_MODIFY_STRICT}), or delete the rule with that match and priority ({@code OFPFC_DELETE_STRICT}).
 */
record FlowChange(Kind kind, Rule rule) {
    enum Kind {
        ADD, MODIFY, DELETE
    }
}

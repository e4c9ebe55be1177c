package net.beaconcontroller.core.internal;

import net.beaconcontroller.openflow.vendor.NiciraRole;

/** The role a reconciliation started under is no longer this controller's: it must not write any more. */
final class MastershipLostException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MastershipLostException(NiciraRole was, NiciraRole now) {
        super("role " + (now == was ? was + " lost and won back" : now + " (was " + was + ")"));
    }
}

package net.beaconcontroller.core.internal;

import net.beaconcontroller.openflow.OFError;

/** A request the switch answered with an OpenFlow ERROR instead of its reply. */
final class ErrorReply extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    final transient OFError error;

    ErrorReply(OFError error) {
        super("switch answered with " + error);
        this.error = error;
    }
}

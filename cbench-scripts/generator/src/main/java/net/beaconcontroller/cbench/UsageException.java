package net.beaconcontroller.cbench;

/** A command line the generator or the responder cannot run with; the message says which option and why. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message meant for the user. */
    public UsageException(String message) {
        super(message);
    }
}

package net.beaconcontroller.core;

/** What a message listener tells the pipeline after handling a message. */
public enum Command {
    /** Pass the message on to the next listener. */
    CONTINUE,
    /** The message is handled: later listeners do not see it. */
    STOP
}

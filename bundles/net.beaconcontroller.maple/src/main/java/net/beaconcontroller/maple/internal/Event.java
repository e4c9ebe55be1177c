package net.beaconcontroller.maple.internal;

/** One step of a trace: what the policy learnt about the packet, in the order it learnt it. */
sealed interface Event permits Event.Read, Event.Check {
    /** The policy read a field and got {@code value}: a V node's branch. */
    record Read(Field field, Object value) implements Event {
    }

    /** The policy asked a test and got {@code outcome}: a T node's branch. */
    record Check(FieldTest test, boolean outcome) implements Event {
    }
}

package net.beaconcontroller.acl;

import java.util.List;
import java.util.Optional;

/**
 * Floodlight's ACL: everything is allowed unless a DENY rule matches. DENY rules are enforced before any packet
 * reaches the controller, as static flows ({@code ACLRule_<id>_<dpid>}) on the switches where hosts inside the rule's
 * source (or, without one, destination) are attached, including hosts that appear later. Rules are kept across
 * restarts and shared by the members of a cluster. Any thread; a change returns once the switches this member
 * masters have been told (or after a few seconds, when the static flow pusher is slow).
 */
public interface IAcl {
    /** What became of a rule offered with {@link #add}. */
    sealed interface Added {
        /** Kept, under its id. */
        record Kept(AclRule rule) implements Added { }

        /** Not kept: {@code earlier} already matches everything it would, so it could never decide. */
        record Covered(AclRule earlier) implements Added { }
    }

    /** Every rule, by ascending id (the order they are matched in). */
    List<AclRule> getRules();

    /**
     * Keeps {@code rule} under the next id (its own id is ignored) and enforces it.
     *
     * @throws java.io.UncheckedIOException when the rules cannot be saved; then nothing changed
     */
    Added add(AclRule rule);

    /** Removes the rule with that id, if there is one, and its flows. */
    Optional<AclRule> remove(int id);

    /** Removes every rule and its flows; ids start at 1 again. Returns how many rules there were. */
    int clear();

    /** What this instance did since it started. */
    AclCounters getCounters();
}

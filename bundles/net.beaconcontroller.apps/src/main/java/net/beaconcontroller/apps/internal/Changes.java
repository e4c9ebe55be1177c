package net.beaconcontroller.apps.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What to do about the jars of the apps folder, from two listings taken one poll apart and what is deployed. A jar is
 * acted on only once its size and time are the same in both listings: a jar still being copied in is left alone
 * until the copy has finished. A jar that has gone is uninstalled at once.
 */
final class Changes {
    /** A jar as the folder lists it. */
    record Stamp(long size, long modified) {
    }

    enum Kind { INSTALL, UPDATE, UNINSTALL }

    record Change(Kind kind, String jar) {
    }

    private Changes() {
    }

    /**
     * @param before   the listing of the previous poll (jar name to stamp)
     * @param now      the listing of this poll
     * @param deployed the stamp of each jar as it was when last installed or updated
     */
    static List<Change> between(Map<String, Stamp> before, Map<String, Stamp> now, Map<String, Stamp> deployed) {
        var changes = new ArrayList<Change>();
        for (String jar : new TreeSet<>(deployed.keySet())) {
            if (!now.containsKey(jar)) {
                changes.add(new Change(Kind.UNINSTALL, jar));
            }
        }
        for (String jar : new TreeSet<>(now.keySet())) {
            Stamp stamp = now.get(jar);
            if (!stamp.equals(before.get(jar))) {
                continue;
            }
            Stamp was = deployed.get(jar);
            if (was == null) {
                changes.add(new Change(Kind.INSTALL, jar));
            } else if (!was.equals(stamp)) {
                changes.add(new Change(Kind.UPDATE, jar));
            }
        }
        return changes;
    }
}

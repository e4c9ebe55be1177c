package net.beaconcontroller.apps.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import net.beaconcontroller.apps.internal.Changes.Change;
import net.beaconcontroller.apps.internal.Changes.Kind;
import net.beaconcontroller.apps.internal.Changes.Stamp;

class ChangesTest {
    private static final Stamp A = new Stamp(100, 1), B = new Stamp(120, 2);

    @Test
    void aJarIsInstalledOnceTwoListingsAgree() {
        assertEquals(List.of(), Changes.between(Map.of(), Map.of("a.jar", A), Map.of()));
        assertEquals(List.of(new Change(Kind.INSTALL, "a.jar")),
                Changes.between(Map.of("a.jar", A), Map.of("a.jar", A), Map.of()));
    }

    @Test
    void aJarStillGrowingWaits() {
        assertEquals(List.of(), Changes.between(Map.of("a.jar", A), Map.of("a.jar", B), Map.of()));
    }

    @Test
    void aReplacedJarUpdatesOnceSettled() {
        assertEquals(List.of(), Changes.between(Map.of("a.jar", A), Map.of("a.jar", B), Map.of("a.jar", A)));
        assertEquals(List.of(new Change(Kind.UPDATE, "a.jar")),
                Changes.between(Map.of("a.jar", B), Map.of("a.jar", B), Map.of("a.jar", A)));
        assertEquals(List.of(), Changes.between(Map.of("a.jar", B), Map.of("a.jar", B), Map.of("a.jar", B)));
    }

    @Test
    void aRemovedJarIsUninstalledAtOnceAndFirst() {
        assertEquals(List.of(new Change(Kind.UNINSTALL, "a.jar"), new Change(Kind.INSTALL, "b.jar")),
                Changes.between(Map.of("b.jar", B), Map.of("b.jar", B), Map.of("a.jar", A)));
    }
}

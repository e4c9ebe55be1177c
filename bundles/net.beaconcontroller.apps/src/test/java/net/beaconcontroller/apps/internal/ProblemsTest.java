package net.beaconcontroller.apps.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleException;

class ProblemsTest {
    @Test
    void aMissingPackageIsNamed() {
        var e = new BundleException("Could not resolve module: broken [57]\n"
                + "  Unresolved requirement: Import-Package: com.example.nothere; version=\"[1.0.0,2.0.0)\"\n\n",
                BundleException.RESOLVE_ERROR);
        assertEquals("missing package com.example.nothere; version=\"[1.0.0,2.0.0)\"", Problems.of(e));
    }

    @Test
    void theAppsOwnRequirementComesBeforeThoseOfWhatItUses() {
        var e = new BundleException("Could not resolve module: app [58]\n"
                + "  Unresolved requirement: Require-Bundle: lib\n"
                + "    -> Bundle-SymbolicName: lib; bundle-version=\"1.0.0\"\n"
                + "       lib [59]\n"
                + "         Unresolved requirement: Import-Package: gone\n", BundleException.RESOLVE_ERROR);
        assertEquals("missing bundle lib", Problems.of(e));
    }

    @Test
    void anActivatorFailureGivesWhatItThrew() {
        var e = new BundleException("Exception in app.Activator.start() of bundle app.",
                BundleException.ACTIVATOR_ERROR, new IllegalStateException("no greeting\nsecond line"));
        assertEquals("its activator failed: java.lang.IllegalStateException: no greeting", Problems.of(e));
    }
}

package net.beaconcontroller.guard.internal;

import java.util.concurrent.TimeUnit;

import net.beaconcontroller.guard.GuardBudgets;

/** The settings in the units the per-switch state works in. */
record Budgets(GuardBudgets settings, long dropNanos) {
    Budgets(GuardBudgets settings) {
        this(settings, TimeUnit.SECONDS.toNanos(settings.dropSeconds()));
    }

    TokenBucket portBucket(long now) {
        return new TokenBucket(settings.portRate(), settings.portBurst(), now);
    }

    TokenBucket switchBucket(long now) {
        return new TokenBucket(settings.switchRate(), settings.switchBurst(), now);
    }
}

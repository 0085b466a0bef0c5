// The approval dialog: a payments.* call waits here until the person
// approves it, denies it with a reason, or edits its input and approves
// the edited input. Requests queue up (Promise.all may ask for several at
// once); a request whose run ends first is withdrawn.

export class ApprovalDesk {
    constructor(dialog) {
        this.dialog = dialog;
        this.queue = [];
        this.current = null;
        const $ = (sel) => dialog.querySelector(sel);
        this.title = $("#approval-tool");
        this.description = $("#approval-description");
        this.meta = $("#approval-meta");
        this.input = $("#approval-input");
        this.inputError = $("#approval-input-error");
        this.reason = $("#approval-reason");
        this.queueNote = $("#approval-queue");
        this.countdown = $("#approval-countdown");
        this.timer = 0;
        this.approveBtn = $("#approval-approve");
        this.denyBtn = $("#approval-deny");
        this.resetBtn = $("#approval-reset");
        this.editedNote = $("#approval-edited");

        this.approveBtn.addEventListener("click", () => this.approve());
        this.denyBtn.addEventListener("click", () => this.deny(this.reason.value.trim() || "Denied by the reviewer."));
        this.resetBtn.addEventListener("click", () => {
            this.input.value = JSON.stringify(this.current.input, null, 2);
            this.onEdit();
        });
        this.input.addEventListener("input", () => this.onEdit());
        this.reason.addEventListener("keydown", (e) => {
            if (e.key === "Enter") {
                e.preventDefault();
                this.denyBtn.click();
            }
        });
        // Escape dismisses: that is a denial, never an approval.
        dialog.addEventListener("cancel", (e) => {
            e.preventDefault();
            this.deny("Dismissed by the reviewer.");
        });
    }

    // ask resolves with an InterceptorDecision plus what the trace shows.
    ask({ tool, input, runId, userId, deadline }) {
        return new Promise((resolve) => {
            this.queue.push({ tool, input, runId, userId, deadline, resolve });
            this.updateQueueNote();
            if (!this.current) this.next();
        });
    }

    next() {
        this.current = this.queue.shift() ?? null;
        if (!this.current) {
            clearInterval(this.timer);
            if (this.dialog.open) this.dialog.close();
            return;
        }
        const { tool, input, runId, userId, deadline } = this.current;
        this.title.textContent = tool.name;
        clearInterval(this.timer);
        const tick = () => {
            const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
            this.countdown.textContent = `The run times out in ${left} s unless you decide.`;
            this.countdown.classList.toggle("urgent", left <= 5);
        };
        this.countdown.hidden = deadline === undefined;
        if (deadline !== undefined) {
            tick();
            this.timer = setInterval(tick, 250);
        }
        this.description.textContent = tool.description ?? "";
        this.meta.textContent = `Asked by copilot run ${runId}, on behalf of ${userId}.`;
        this.input.value = JSON.stringify(input, null, 2);
        this.input.rows = Math.min(12, Math.max(4, this.input.value.split("\n").length));
        this.reason.value = "";
        this.onEdit();
        this.updateQueueNote();
        if (!this.dialog.open) this.dialog.showModal();
        this.approveBtn.focus();
    }

    updateQueueNote() {
        const n = this.queue.length;
        this.queueNote.textContent = n ? `${n} more waiting after this one` : "";
        this.queueNote.hidden = !n;
    }

    parsed() {
        try {
            return { value: JSON.parse(this.input.value) };
        } catch (err) {
            return { error: err.message };
        }
    }

    onEdit() {
        const p = this.parsed();
        this.inputError.textContent = p.error ? `Not valid JSON: ${p.error}` : "";
        this.inputError.hidden = !p.error;
        this.input.setAttribute("aria-invalid", String(Boolean(p.error)));
        const edited = !p.error && JSON.stringify(p.value) !== JSON.stringify(this.current?.input);
        this.editedNote.hidden = !edited;
        this.resetBtn.hidden = !edited && !p.error;
        this.approveBtn.textContent = edited ? "Approve edited input" : "Approve";
        this.approveBtn.disabled = Boolean(p.error);
    }

    approve() {
        const p = this.parsed();
        if (p.error) return this.onEdit();
        const edited = JSON.stringify(p.value) !== JSON.stringify(this.current.input);
        this.settle(edited ? { allowed: true, input: p.value, by: "person", edited: true } : { allowed: true, by: "person" });
    }

    deny(reason) {
        if (!this.current) return;
        this.settle({ allowed: false, reason, by: "person" });
    }

    settle(decision) {
        const req = this.current;
        this.current = null;
        req.resolve(decision);
        this.next();
    }

    // withdraw ends the requests of a run that is over (cancelled, timed out).
    withdraw(runId, reason) {
        const mine = (r) => r.runId === runId;
        for (const r of this.queue.filter(mine)) r.resolve({ allowed: false, reason, by: "system" });
        this.queue = this.queue.filter((r) => !mine(r));
        if (this.current && mine(this.current)) {
            const r = this.current;
            this.current = null;
            r.resolve({ allowed: false, reason, by: "system" });
            this.next();
        } else {
            this.updateQueueNote();
        }
    }
}

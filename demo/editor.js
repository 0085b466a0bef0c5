// A small code editor: a textarea with line numbers in a gutter and a
// highlighted error line. Tab indents, Ctrl/Cmd+Enter runs.

export class CodeEditor {
    constructor(root, { onRun } = {}) {
        this.root = root;
        this.textarea = root.querySelector("textarea");
        this.gutter = root.querySelector(".gutter");
        this.band = root.querySelector(".error-band");
        this.errorLine = 0;
        this.lineCount = 0;
        this.textarea.addEventListener("input", () => {
            this.clearError();
            this.renderGutter();
        });
        this.textarea.addEventListener("scroll", () => this.syncScroll());
        this.textarea.addEventListener("keydown", (e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                onRun?.();
            } else if (e.key === "Tab" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
                // Two spaces, through execCommand so that undo keeps working.
                e.preventDefault();
                if (!document.execCommand("insertText", false, "  ")) {
                    this.textarea.setRangeText("  ", this.textarea.selectionStart, this.textarea.selectionEnd, "end");
                    this.textarea.dispatchEvent(new Event("input"));
                }
            }
        });
        new ResizeObserver(() => this.syncScroll()).observe(this.textarea);
        this.renderGutter();
    }

    get value() {
        return this.textarea.value;
    }

    set value(code) {
        this.textarea.value = code;
        this.textarea.scrollTop = 0;
        this.clearError();
        this.renderGutter();
    }

    set readOnly(ro) {
        this.textarea.readOnly = ro;
        this.root.classList.toggle("readonly", ro);
    }

    renderGutter() {
        const n = this.textarea.value.split("\n").length;
        if (n !== this.lineCount) {
            this.lineCount = n;
            const frag = document.createDocumentFragment();
            for (let i = 1; i <= n; i++) {
                const d = document.createElement("div");
                d.textContent = String(i);
                frag.append(d);
            }
            this.gutter.replaceChildren(frag);
        }
        this.gutter.querySelectorAll(".error").forEach((el) => el.classList.remove("error"));
        if (this.errorLine > 0) {
            const el = this.gutter.children[this.errorLine - 1];
            el?.classList.add("error");
            el?.setAttribute("title", this.errorTitle);
        }
        this.syncScroll();
    }

    syncScroll() {
        this.gutter.style.transform = `translateY(${-this.textarea.scrollTop}px)`;
        if (this.errorLine > 0) {
            const style = getComputedStyle(this.textarea);
            const lh = parseFloat(style.lineHeight);
            const top = parseFloat(style.paddingTop) + (this.errorLine - 1) * lh - this.textarea.scrollTop;
            this.band.style.top = `${top}px`;
            this.band.style.height = `${lh}px`;
            this.band.hidden = false;
        } else {
            this.band.hidden = true;
        }
    }

    // Marks a line (1-based) of the code as the error's.
    showError(line, title = "") {
        this.errorLine = Number.isInteger(line) && line > 0 && line <= this.lineCount ? line : 0;
        this.errorTitle = title;
        this.root.dataset.errorLine = this.errorLine ? String(this.errorLine) : "";
        this.renderGutter();
        if (this.errorLine) {
            // Bring the line into view.
            const lh = parseFloat(getComputedStyle(this.textarea).lineHeight);
            const y = (this.errorLine - 1) * lh;
            const ta = this.textarea;
            if (y < ta.scrollTop || y > ta.scrollTop + ta.clientHeight - 2 * lh) ta.scrollTop = Math.max(0, y - ta.clientHeight / 3);
        }
    }

    clearError() {
        if (!this.errorLine) return;
        this.errorLine = 0;
        this.root.dataset.errorLine = "";
        this.renderGutter();
    }
}

import { Button } from "@/components/ui/button";
import { PanelHead } from "@/components/ui/panel";
import styles from "./memories.module.css";

/** The head of the add and import forms: the form's title and a Close button, across the form's grid. */
export function FormHead({ title, titleId, onClose }: { title: string; titleId: string; onClose: () => void }) {
  return (
    <PanelHead
      title={title}
      titleId={titleId}
      className={styles.formHead}
      aside={
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      }
    />
  );
}

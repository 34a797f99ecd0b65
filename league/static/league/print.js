// Printouts: any button with data-print opens the browser's print dialog.
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});

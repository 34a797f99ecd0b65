"""Hand entry without Django: what the staff hand form does with its fields,
as pure Python the server and the phone's engine (Pyodide) both run."""

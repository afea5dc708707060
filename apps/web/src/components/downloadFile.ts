/**
 * Downloads a same-origin file through an <a download>: the token cookie authenticates the
 * request, so no token goes into the URL and the browser streams the file to disk.
 */
export const downloadFile = (url: string, fileName = '') => {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
};
